package io.github.cudastackbudget.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * The parser fuzz targets ({@link FuzzTargets}) under Jazzer's JUnit integration. A plain build replays each target's
 * seed corpus and findings ({@code src/test/resources/io/github/cudastackbudget/fuzz/ParserFuzzTestInputs/<target>/}:
 * slices of the real binaries, recordings and logs, made by {@code SeedCorpus}); {@code JAZZER_FUZZ=1} fuzzes one
 * target per JVM ({@code -Dtest=ParserFuzzTest#elf}); {@code src/test/fuzz/short-campaign.sh} (in {@code .ci/run}) and
 * {@code long-campaign.sh} fuzz every target with Jazzer's standalone driver.
 */
class ParserFuzzTest {

    @FuzzTest
    void elf(byte[] data) {
        FuzzTargets.Elf.fuzzerTestOneInput(data);
    }

    @FuzzTest
    void ar(byte[] data) {
        FuzzTargets.Ar.fuzzerTestOneInput(data);
    }

    @FuzzTest
    void fatbin(byte[] data) {
        FuzzTargets.Fatbin.fuzzerTestOneInput(data);
    }

    @FuzzTest
    void cubin(byte[] data) {
        FuzzTargets.Cubin.fuzzerTestOneInput(data);
    }

    @FuzzTest
    void ptxEntryNames(byte[] data) {
        FuzzTargets.Ptx.fuzzerTestOneInput(data);
    }

    @FuzzTest
    void nativeRead(byte[] data) {
        FuzzTargets.NativeRead.fuzzerTestOneInput(data);
    }

    @FuzzTest
    void cuobjdumpText(byte[] data) {
        FuzzTargets.CuobjdumpText.fuzzerTestOneInput(data);
    }

    @FuzzTest
    void launchLog(byte[] data) {
        FuzzTargets.LaunchLog.fuzzerTestOneInput(data);
    }

    @FuzzTest
    void sizes(byte[] data) {
        FuzzTargets.Sizes.fuzzerTestOneInput(data);
    }

    @FuzzTest
    void reportJson(byte[] data) {
        FuzzTargets.ReportJson.fuzzerTestOneInput(data);
    }
}
