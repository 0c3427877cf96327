package io.github.cudastackbudget.core.selection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.arch.ComputeCapability;
import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.model.KernelRecord.FunctionKey;
import io.github.cudastackbudget.core.selection.FunctionChoice.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ImageSelectorTest {

    private static final String LIB = "libx.so";
    private static final String NAME = "_Z1fv";
    private static final FunctionKey KEY = new FunctionKey(LIB, NAME);

    private static KernelRecord image(String arch, long stack) {
        return new KernelRecord(LIB, GpuArch.parse(arch), NAME, 40, stack, false, 0, 0);
    }

    private static KernelRecord unknown(String arch) {
        return new KernelRecord(LIB, GpuArch.parse(arch), NAME, 40, 0, true, 0, 0);
    }

    private static SortedSet<GpuArch> ptx(String... labels) {
        SortedSet<GpuArch> set = new TreeSet<>();
        for (String label : labels) {
            set.add(GpuArch.parse(label));
        }
        return set;
    }

    private static FunctionChoice choose(String device, SortedSet<GpuArch> ptx, KernelRecord... images) {
        return ImageSelector.choose(KEY, List.of(images), ptx, ComputeCapability.parse(device));
    }

    @Test
    void duplicateRecordsOfOneArchKeepTheLargerFrame() {
        KernelRecord small = image("sm_90", 128);
        KernelRecord large = image("sm_90", 2048);

        for (List<KernelRecord> order : List.of(List.of(small, large), List.of(large, small))) {
            FunctionChoice choice = ImageSelector.choose(KEY, order, ptx(), ComputeCapability.parse("9.0"));
            assertThat(choice.outcome()).isEqualTo(Outcome.SASS);
            assertThat(choice.chosen()).isSameAs(large);
            assertThat(choice.alternatives()).isEmpty();
        }
    }

    @Test
    void duplicatesOfALowerArchDoNotBeatTheHighestCompatibleArch() {
        FunctionChoice choice = choose("8.9", ptx(), image("sm_80", 9000), image("sm_80", 8000), image("sm_86", 100));

        assertThat(choice.outcome()).isEqualTo(Outcome.SASS);
        assertThat(choice.chosen().arch().sassLabel()).isEqualTo("sm_86");
        assertThat(choice.chosen().stack()).isEqualTo(100);
    }

    @Test
    void duplicateWithUnknownStackIsKeptOverAKnownOne() {
        KernelRecord known = image("sm_90", 65536);
        KernelRecord unknownFrame = unknown("sm_90");

        FunctionChoice choice = choose("9.0", ptx(), known, unknownFrame);

        assertThat(choice.chosen()).isSameAs(unknownFrame);
        assertThat(choice.chosen().stackForRanking()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void unknownFamilyStackRanksAboveAKnownBaseStackInAmbiguity() {
        KernelRecord base = image("sm_100", 50_000);
        KernelRecord family = unknown("sm_103f");

        FunctionChoice choice = choose("10.3", ptx(), base, family);

        assertThat(choice.outcome()).isEqualTo(Outcome.AMBIGUOUS);
        assertThat(choice.chosen()).isSameAs(family);
        assertThat(choice.alternatives()).containsExactly(base);
    }

    @Test
    void unknownBaseStackRanksAboveAKnownFamilyStackInAmbiguity() {
        KernelRecord base = unknown("sm_100");
        KernelRecord family = image("sm_100f", 50_000);

        FunctionChoice choice = choose("10.0", ptx(), family, base);

        assertThat(choice.outcome()).isEqualTo(Outcome.AMBIGUOUS);
        assertThat(choice.chosen()).isSameAs(base);
        assertThat(choice.alternatives()).containsExactly(family);
    }

    @Test
    void equalFramesInAmbiguityPickTheHigherArchDeterministically() {
        KernelRecord base = image("sm_100", 512);
        KernelRecord family = image("sm_103f", 512);

        FunctionChoice one = choose("10.3", ptx(), base, family);
        FunctionChoice other = choose("10.3", ptx(), family, base);

        assertThat(one.outcome()).isEqualTo(Outcome.AMBIGUOUS);
        assertThat(one.chosen()).isSameAs(family);
        assertThat(other.chosen()).isSameAs(family);
        assertThat(one.alternatives()).containsExactly(base);
    }

    @Test
    void archSpecificBeatsFamilyOfTheSameCapability() {
        FunctionChoice choice = choose("10.0", ptx(), image("sm_100f", 9000), image("sm_100a", 10));

        assertThat(choice.outcome()).isEqualTo(Outcome.SASS);
        assertThat(choice.chosen().arch().sassLabel()).isEqualTo("sm_100a");
        assertThat(choice.alternatives()).isEmpty();
    }

    @Test
    void archSpecificForAnotherCapabilityIsIgnored() {
        FunctionChoice choice = choose("10.3", ptx(), image("sm_100a", 9000), image("sm_100", 10));

        assertThat(choice.outcome()).isEqualTo(Outcome.SASS);
        assertThat(choice.chosen().arch().sassLabel()).isEqualTo("sm_100");
    }

    @Test
    void twoFamilyImagesPickTheHighestCompatibleWithoutAmbiguity() {
        FunctionChoice choice = choose("10.3", ptx(), image("sm_100f", 9000), image("sm_103f", 10));

        assertThat(choice.outcome()).isEqualTo(Outcome.SASS);
        assertThat(choice.chosen().arch().sassLabel()).isEqualTo("sm_103f");
        assertThat(choice.chosen().stack()).isEqualTo(10);
    }

    @Test
    void ambiguityComparesTheBestOfEachKind() {
        // base: sm_100 (frame 300) and sm_103 (frame 200) -> best base is sm_103; family sm_100f frame 250
        FunctionChoice choice = choose("10.3", ptx(), image("sm_100", 300), image("sm_103", 200), image("sm_100f", 250));

        assertThat(choice.outcome()).isEqualTo(Outcome.AMBIGUOUS);
        assertThat(choice.chosen().arch().sassLabel()).isEqualTo("sm_100f");
        assertThat(choice.alternatives()).extracting(record -> record.arch().sassLabel()).containsExactly("sm_103");
    }

    @Test
    void jitPicksTheHighestCompatiblePtx() {
        FunctionChoice choice = choose("8.9", ptx("compute_75", "compute_80", "compute_86", "compute_90", "compute_100a"),
                image("sm_70", 100));

        assertThat(choice.outcome()).isEqualTo(Outcome.JIT);
        assertThat(choice.jitFrom().ptxLabel()).isEqualTo("compute_86");
        assertThat(choice.chosen()).isNull();
        assertThat(choice.alternatives()).isEmpty();
    }

    @Test
    void ptxIsIgnoredWhenSassLoads() {
        FunctionChoice choice = choose("8.9", ptx("compute_89"), image("sm_80", 100));

        assertThat(choice.outcome()).isEqualTo(Outcome.SASS);
        assertThat(choice.chosen().arch().sassLabel()).isEqualTo("sm_80");
        assertThat(choice.jitFrom()).isNull();
    }

    @Test
    void noImagesAtAllAndNoPtxCannotRun() {
        FunctionChoice choice = ImageSelector.choose(KEY, List.of(), ptx(), ComputeCapability.parse("9.0"));

        assertThat(choice.outcome()).isEqualTo(Outcome.CANNOT_RUN);
        assertThat(choice.function()).isEqualTo(KEY);
    }

    @Test
    void functionChoiceCopiesAlternativesAndRequiresFunctionAndOutcome() {
        List<KernelRecord> alternatives = new ArrayList<>(List.of(image("sm_90", 1)));
        FunctionChoice choice = new FunctionChoice(KEY, Outcome.AMBIGUOUS, image("sm_90a", 2), alternatives, null);
        alternatives.clear();

        assertThat(choice.alternatives()).hasSize(1);
        assertThatThrownBy(() -> choice.alternatives().add(image("sm_80", 3)))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> new FunctionChoice(null, Outcome.SASS, null, List.of(), null))
                .isInstanceOf(NullPointerException.class).hasMessage("function");
        assertThatThrownBy(() -> new FunctionChoice(KEY, null, null, List.of(), null))
                .isInstanceOf(NullPointerException.class).hasMessage("outcome");
    }
}
