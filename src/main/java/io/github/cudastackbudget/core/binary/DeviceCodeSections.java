package io.github.cudastackbudget.core.binary;

import java.util.ArrayList;
import java.util.List;

/**
 * Which sections of a host ELF file carry device code (docs/cuda-binary-format.md 2.1): every section named exactly
 * {@code .nv_fatbin} (libraries, executables, whole-program objects) and every one named {@code __nv_relfatbin}
 * (relocatable device code, {@code -rdc=true}). The readers take the {@code .nv_fatbin} sections, and the
 * {@code __nv_relfatbin} ones only when there is none, as cuobjdump does. The one rule, used by the detector and by the
 * native reader.
 *
 * @param fatbin      the {@code .nv_fatbin} sections in section order
 * @param relocatable the {@code __nv_relfatbin} sections in section order
 */
record DeviceCodeSections(List<ElfFile.Section> fatbin, List<ElfFile.Section> relocatable) {

    static final String NV_FATBIN = ".nv_fatbin";
    static final String NV_RELFATBIN = "__nv_relfatbin";

    DeviceCodeSections {
        fatbin = List.copyOf(fatbin);
        relocatable = List.copyOf(relocatable);
    }

    static DeviceCodeSections of(ElfFile elf) {
        List<ElfFile.Section> fatbin = new ArrayList<>();
        List<ElfFile.Section> relocatable = new ArrayList<>();
        for (ElfFile.Section section : elf.sections()) {
            if (section.name().equals(NV_FATBIN)) {
                fatbin.add(section);
            } else if (section.name().equals(NV_RELFATBIN)) {
                relocatable.add(section);
            }
        }
        return new DeviceCodeSections(fatbin, relocatable);
    }

    /** Whether the file has any device-code section. */
    boolean any() {
        return !fatbin.isEmpty() || !relocatable.isEmpty();
    }

    /** The sections the readers read: the {@code .nv_fatbin} ones, or only when there is none the relocatable ones. */
    List<ElfFile.Section> toRead() {
        return fatbin.isEmpty() ? relocatable : fatbin;
    }

    /** Whether the only device code is relocatable ({@code __nv_relfatbin} without {@code .nv_fatbin}). */
    boolean onlyRelocatable() {
        return fatbin.isEmpty() && !relocatable.isEmpty();
    }

    /** The names present, {@code .nv_fatbin} first: {@code ".nv_fatbin, __nv_relfatbin"}. */
    String names() {
        List<String> names = new ArrayList<>(2);
        if (!fatbin.isEmpty()) {
            names.add(NV_FATBIN);
        }
        if (!relocatable.isEmpty()) {
            names.add(NV_RELFATBIN);
        }
        return String.join(", ", names);
    }
}
