package io.github.cudastackbudget;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Holds the shape of the code (issue 9, {@code ../shared/docs/architecture.md}) over the compiled main classes: a
 * Maven-free core, no package cycle, each layer importing only the layers below it, and front ends that use only
 * the core's API.
 */
class ArchitectureTest {

    private static final String ROOT = "io.github.cudastackbudget";
    private static final String CORE = ROOT + ".core";

    /** The layers, lowest first; a package may import its own layer's group and the layers below. */
    static final List<Set<String>> LAYERS = List.of(
            Set.of("text"),
            Set.of("arch", "exec"),
            Set.of("binary", "device", "demangle"),
            Set.of("model"),
            Set.of("scan", "selection", "launch", "cache"),
            Set.of("engine"),
            Set.of("budget"),
            Set.of("gate"),
            Set.of("check"),
            Set.of("report"),
            Set.of("baseline"),
            Set.of("core"),
            Set.of("cli", "maven", "injection"));

    /** What the front ends may use of the core: whole packages, and single types of the packages below. */
    static final Set<String> API_PACKAGES = Set.of(CORE, CORE + ".text", CORE + ".report.model");
    static final Set<String> API_TYPES = Set.of(
            // what CheckRunner.Outcome carries
            CORE + ".check.CheckResult", CORE + ".model.LibraryScan",
            // what ReportModel.checks() carries
            CORE + ".gate.GateCheck", CORE + ".gate.GateCheck$Outcome",
            // the inputs CheckOptions takes
            CORE + ".scan.FileSetSpec", CORE + ".scan.JarInput", CORE + ".scan.JarScanOptions",
            CORE + ".scan.LibraryDiscovery", CORE + ".device.DeviceDefinition", CORE + ".report.OutputOptions",
            CORE + ".gate.GateOptions", CORE + ".baseline.BaselineOptions",
            // the site page draws the standalone page's chart
            CORE + ".report.html.SvgBarChart", CORE + ".report.html.SvgBarChart$Style",
            // prepare-agent
            CORE + ".launch.AgentLibrary", CORE + ".launch.AgentException",
            // DumpResourceUsage: the native reader as a tool
            CORE + ".binary.DeviceCodeReader", CORE + ".binary.DeviceCodeListing", CORE + ".binary.ResourceUsageText",
            CORE + ".binary.BinaryFormatException");

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
        assertThat(classes).as("main classes of %s", ROOT).hasSizeGreaterThan(50);
    }

    /** The group of a class: the package segment after {@code core} ({@code core} itself for the API), or the front end. */
    static String group(JavaClass type) {
        String pkg = type.getPackageName();
        if (pkg.equals(CORE)) {
            return "core";
        }
        if (pkg.startsWith(CORE + ".")) {
            return pkg.substring(CORE.length() + 1).split("\\.")[0];
        }
        return pkg.substring(ROOT.length() + 1).split("\\.")[0];
    }

    static int layer(String group) {
        for (int i = 0; i < LAYERS.size(); i++) {
            if (LAYERS.get(i).contains(group)) {
                return i;
            }
        }
        throw new AssertionError("package group '" + group + "' has no layer in ArchitectureTest.LAYERS: add it");
    }

    @Test
    void theCoreImportsNoMavenOrDoxia() {
        noClasses().that().resideInAPackage(CORE + "..").should().dependOnClassesThat()
                .resideInAnyPackage("org.apache.maven..", "org.eclipse.aether..", "org.codehaus.plexus.component..")
                .check(classes);
    }

    @Test
    void noPackageCycles() {
        slices().matching(ROOT + ".(**)").should().beFreeOfCycles().check(classes);
    }

    @Test
    void eachLayerImportsOnlyItsOwnGroupAndTheLayersBelow() {
        Set<String> wrong = new TreeSet<>();
        for (JavaClass type : classes) {
            String from = group(type);
            for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
                JavaClass target = dependency.getTargetClass();
                if (!target.getPackageName().startsWith(ROOT) || target.getPackageName().equals(ROOT)) {
                    continue;
                }
                String to = group(target);
                if (!to.equals(from) && layer(to) >= layer(from)) {
                    wrong.add(from + " -> " + to + ": " + type.getName() + " uses " + target.getName());
                }
            }
        }
        assertThat(wrong).as("imports against the layer order %s", LAYERS).isEmpty();
    }

    @Test
    void frontEndsUseOnlyTheCoresApi() {
        Set<String> wrong = new TreeSet<>();
        for (JavaClass type : classes) {
            String from = group(type);
            if (!from.equals("cli") && !from.equals("maven")) {
                continue;
            }
            for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
                JavaClass target = dependency.getTargetClass();
                String name = target.getName();
                if (name.startsWith(CORE + ".") && !API_PACKAGES.contains(target.getPackageName())
                        && !API_TYPES.contains(name.replaceAll("\\$\\d+$", ""))
                        && !API_TYPES.contains(target.getName().split("\\$")[0])) {
                    wrong.add(type.getName() + " uses " + name);
                }
            }
        }
        assertThat(wrong).as("front-end uses of core types outside the API %s %s", API_PACKAGES, API_TYPES)
                .isEmpty();
    }
}
