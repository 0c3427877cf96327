package io.github.cudastackbudget.core.binary;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Section names are tested on the section-name table's text without being made Strings (issue 11): each test of
 * {@link ElfFile.Section} must say what the same test says of {@link ElfFile.Section#name()}.
 */
class SectionNamesTest {

    @Test
    void theTestsOnTheTableAgreeWithTheNameOnEverySectionOfRealCubins() throws IOException, BinaryFormatException {
        List<Path> cubins = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of("target", "native-matrix", "cubin"))) {
            files.filter(file -> file.toString().endsWith(".cubin")).sorted().forEach(cubins::add);
        }
        cubins.add(Path.of("target", "test-cuda", "frames_sm90.cubin"));
        assertThat(cubins).hasSizeGreaterThan(10);
        int sections = 0;
        for (Path cubin : cubins) {
            ElfFile elf = ElfFile.read(ByteRegion.of(cubin.toString(), ByteBuffer.wrap(Files.readAllBytes(cubin)), 0));
            Set<String> probes = new LinkedHashSet<>(List.of("", ".", ".nv.", ".nv.info", ".nv.global",
                    ".nv.global.init", ".nv.shared.", ".nv.constant", ".text.", ".nv.compat", ".symtab"));
            for (ElfFile.Section section : elf.sections()) {
                String name = section.name();
                probes.add(name);
                probes.add(name + "x");
                probes.add(name.substring(0, name.length() / 2));
            }
            // a fresh read: every name still to be cut from the table when tested
            for (ElfFile.Section section : ElfFile.read(ByteRegion.of(cubin.toString(),
                    ByteBuffer.wrap(Files.readAllBytes(cubin)), 0)).sections()) {
                String name = elf.sections().get(section.index()).name();
                for (String probe : probes) {
                    assertThat(section.nameIs(probe)).as("%s: '%s' is '%s'", cubin, name, probe)
                            .isEqualTo(name.equals(probe));
                    assertThat(section.nameStartsWith(probe)).as("%s: '%s' starts with '%s'", cubin, name, probe)
                            .isEqualTo(name.startsWith(probe));
                }
                assertThat(section.nameLength()).isEqualTo(name.length());
                for (int at = -1; at <= name.length() + 1; at++) {
                    assertThat(section.nameChar(at)).isEqualTo(at >= 0 && at < name.length() ? name.charAt(at) : 0);
                    assertThat(section.nameFrom(Math.max(0, at)))
                            .isEqualTo(name.substring(Math.min(Math.max(0, at), name.length())));
                }
                assertThat(section.name()).isEqualTo(name);
                sections++;
            }
        }
        assertThat(sections).isGreaterThan(500);
    }

    @Test
    void aNameThatIsTheSuffixOfAnotherEndsWhereThatOneEnds() throws BinaryFormatException {
        // linkers share the tail of the table: ".rel.nv.constant0.k" also names ".nv.constant0.k" and "k"
        byte[] image = new ElfBuilder().machine(62).section(".rel.nv.constant0.k").sectionNamedAtSuffixOfPrevious(4)
                .sectionNamedAtSuffixOfPrevious(".nv.constant0.".length()).section(".nv.info").build();
        List<ElfFile.Section> sections = ElfFile.read(ByteRegion.of("suffixes", ByteBuffer.wrap(image), 0))
                .sections();
        assertThat(sections.get(2).nameIs(".nv.constant0.k")).isTrue();
        assertThat(sections.get(2).nameStartsWith(".nv.constant0.")).isTrue();
        assertThat(sections.get(2).nameChar(".nv.constant0".length())).isEqualTo('.');
        assertThat(sections.get(2).nameFrom(".nv.constant0.".length())).isEqualTo("k");
        assertThat(sections.get(3).nameIs("k")).isTrue();
        assertThat(sections.get(3).nameLength()).isEqualTo(1);
        assertThat(sections.get(4).nameIs(".nv.info")).isTrue();
        assertThat(sections.get(4).nameIs(".nv.inf")).isFalse();
        assertThat(sections.get(4).nameIs(".nv.info.")).isFalse();
        assertThat(sections.get(0).nameIs("")).isTrue();
        assertThat(sections.get(0).nameChar(0)).isEqualTo((char) 0);
    }
}
