package io.github.cudastackbudget.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.github.cudastackbudget.core.binary.BinaryFormatException;
import io.github.cudastackbudget.core.binary.CubinResources;
import io.github.cudastackbudget.core.binary.DeviceCodeListing;
import io.github.cudastackbudget.core.binary.DeviceCodeReader;
import io.github.cudastackbudget.core.binary.DeviceImage;
import io.github.cudastackbudget.core.engine.BuildLog.LoggedFunction;
import io.github.cudastackbudget.core.engine.BuildLog.LoggedModule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * The figures cuobjdump prints besides REG/STACK/SHARED/LOCAL, read by the native reader ({@link DeviceCodeReader},
 * which {@link NativeEngine} uses) from every binary of the native-reader matrix and checked against the build logs
 * (cuda-binary-format.md 4.5, 4.8): {@code GLOBAL} = {@code N bytes gmem}; a kernel's {@code CONSTANT[n]} =
 * {@code N bytes cmem[n]} and the module's banks = the module's {@code cmem[n]}, where ptxas / nvlink print them
 * (ptxas below sm_90 only); and, on every target, the designed {@code __constant__} table and by-value parameter.
 */
class NativeMatrixConstantBanksTest {

    private static final DeviceCodeReader READER = new DeviceCodeReader(2, 1L << 30);

    @TestFactory
    Stream<DynamicNode> constantBanksAndGlobalsMatchTheBuildLogs() {
        return NativeMatrix.binaries().stream()
                .map(binary -> dynamicContainer(binary.path(), Stream.of(binary).flatMap(this::checks)));
    }

    private Stream<DynamicNode> checks(NativeMatrix.Binary binary) {
        DeviceCodeListing listing = read(binary);
        List<DynamicNode> nodes = new ArrayList<>();
        List<BuildLog> logs = binary.readLogs();
        for (DeviceCodeListing.Block block : listing.blocks()) {
            BuildLog log = switch (binary.form()) {
                case "so-ptx-only" -> null;
                case "rdc-archive" -> logs.get(block.label().contains("rdc_a.o") ? 0 : 1);
                default -> logs.get(0);
            };
            for (DeviceImage image : block.images()) {
                if (image.isPtx()) {
                    continue;
                }
                String label = image.arch().sassLabel();
                String name = block.label() + " | " + label;
                CubinResources resources = image.resources();
                if (resources.functions().isEmpty()) {
                    // nvcc 13 puts one empty cubin per SASS target first in a library
                    nodes.add(check(name + " | empty cubin | GLOBAL", 0L, resources.global(), "no functions"));
                    continue;
                }
                assertTrue(log != null, binary + ": SASS in a PTX-only library");
                String built = binary.form().equals("cubin") ? binary.sass().get(0) : label;
                nodes.addAll(image(name, resources, log, built, binary.form().equals("rdc-linked"), logs));
            }
        }
        return nodes.stream();
    }

    private List<DynamicNode> image(String name, CubinResources resources, BuildLog log, String arch, boolean linked,
            List<BuildLog> logs) {
        List<DynamicNode> nodes = new ArrayList<>();
        List<LoggedModule> modules = log.modules().stream().filter(module -> module.arch().equals(arch)).toList();
        assertEquals(1, modules.size(), name + ": one " + (linked ? "nvlink" : "ptxas") + " run for " + arch);
        LoggedModule module = modules.get(0);
        nodes.add(check(name + " | Common | GLOBAL", module.gmem(), resources.global(), module.tool() + " gmem"));
        Map<Integer, Long> common = banks(resources.commonConstants());
        if (!module.cmem().isEmpty()) {
            nodes.add(check(name + " | Common | CONSTANT banks", new TreeMap<>(module.cmem()), common, "ptxas module cmem"));
        }
        boolean matrix = log.functionsOf(arch).stream().anyMatch(function -> function.name().equals("m_globals"));
        if (matrix) {
            nodes.add(dynamicTest(name + " | Common | CONSTANT (designed)", () -> assertTrue(
                    common.containsValue(MatrixDesign.MATRIX_CONSTANT_TABLE),
                    name + ": a module bank of " + MatrixDesign.MATRIX_CONSTANT_TABLE
                            + " bytes (__constant__ float m_table[300]) expected, the native reader read " + common)));
            nodes.add(dynamicTest(name + " | Common | GLOBAL (designed)", () -> assertTrue(
                    resources.global() >= MatrixDesign.MIN_MATRIX_GLOBALS,
                    name + ": GLOBAL >= " + MatrixDesign.MIN_MATRIX_GLOBALS + " expected, read " + resources.global())));
        }
        for (CubinResources.Function function : resources.functions()) {
            Map<Integer, Long> actual = banks(function.constants());
            LoggedFunction logged = log.functionsOf(arch).stream()
                    .filter(candidate -> candidate.entry() && candidate.name().equals(function.name()))
                    .findFirst().orElse(null);
            String prefix = name + " | " + function.name();
            if (logged != null && !logged.cmem().isEmpty()) {
                nodes.add(check(prefix + " | CONSTANT banks", new TreeMap<>(logged.cmem()), actual,
                        logged.tool() + " cmem[n]"));
            }
            if (function.kernel()) {
                nodes.add(dynamicTest(prefix + " | CONSTANT[0] (designed)", () -> assertTrue(
                        actual.getOrDefault(0, 0L) > (function.name().equals("m_big_param") ? MatrixDesign.BIG_PARAM : 0),
                        prefix + ": every kernel has a parameter bank CONSTANT[0] (m_big_param: more than its "
                                + MatrixDesign.BIG_PARAM + "-byte parameter), the native reader read " + actual)));
            } else {
                nodes.add(check(prefix + " | CONSTANT[0] (device function)", null, actual.get(0),
                        "device functions have no parameter bank"));
            }
        }
        if (linked) {
            // every kernel the nvlink log lists is in the linked image
            for (LoggedFunction kernel : log.functionsOf(arch)) {
                nodes.add(dynamicTest(name + " | " + kernel.name() + " | present", () -> assertTrue(
                        resources.functions().stream().anyMatch(function -> function.name().equals(kernel.name())
                                && function.kernel()), name + ": kernel " + kernel.name() + " missing")));
            }
            assertEquals(3, logs.size(), "nvlink log and the two objects' ptxas logs");
        }
        return nodes;
    }

    private static Map<Integer, Long> banks(List<CubinResources.ConstantBank> banks) {
        Map<Integer, Long> map = new TreeMap<>();
        banks.forEach(bank -> map.put(bank.bank(), bank.size()));
        return map;
    }

    private static DynamicNode check(String name, Object expected, Object actual, String source) {
        return dynamicTest(name, () -> assertEquals(expected, actual,
                () -> name + ": expected " + expected + " (" + source + ") but the native reader read " + actual));
    }

    private static DeviceCodeListing read(NativeMatrix.Binary binary) {
        try {
            return READER.read(binary.file());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (BinaryFormatException e) {
            throw new AssertionError(binary + ": the native reader failed: " + e.getMessage(), e);
        }
    }
}
