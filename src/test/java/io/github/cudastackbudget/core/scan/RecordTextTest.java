package io.github.cudastackbudget.core.scan;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.binary.BinaryKind;
import io.github.cudastackbudget.core.binary.DeviceCodeProbe;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The records whose text is part of the check-result cache's key have their {@code toString} written by hand (issue
 * 11: the generated one bootstraps through method handles, about 50 ms in a build's cold JVM). Each must give what the
 * generated one gives, {@code Name[component=value, ...]} in component order (java.lang.Record's form), so that keys
 * stay what they were.
 */
class RecordTextTest {

    @Test
    void jarInputs() throws Exception {
        assertRecordForm(new JarInput(Path.of("/m2/a/b.jar"), "g:a:1"));
        assertRecordForm(new JarInput(Path.of("b.jar"), null));
    }

    @Test
    void probes() throws Exception {
        DeviceCodeProbe read = new DeviceCodeProbe(Path.of("/x/libk.so"), BinaryKind.HOST_ELF, true, "3 cubins",
                List.of("a.o", "b.o"), false);
        assertRecordForm(read);
        DeviceCodeProbe.Unreadable unreadable = new DeviceCodeProbe.Unreadable("/x/libk.so", 0x40, "bad header");
        assertRecordForm(unreadable);
        assertRecordForm(new DeviceCodeProbe(Path.of("/x/libk.so"), BinaryKind.FATBIN, true, "bad header", List.of(),
                true, unreadable));
    }

    @Test
    void jarEntries() throws Exception {
        JarEntryLibrary outer = new JarEntryLibrary(Path.of("/app.jar"), null, "BOOT-INF/lib/dep.jar", 1000, true, 64,
                0xCAFEL, 1000, "app");
        assertRecordForm(outer);
        assertRecordForm(new JarEntryLibrary(Path.of("/app.jar"), outer, "native/libx.so", 5000, false, 128, 17, 2100,
                null));
    }

    /** The generated form, from the record's components: Name[a=1, b=x]. */
    private static void assertRecordForm(Record record) throws Exception {
        List<String> parts = new ArrayList<>();
        for (RecordComponent component : record.getClass().getRecordComponents()) {
            parts.add(component.getName() + "=" + component.getAccessor().invoke(record));
        }
        assertThat(record.toString()).isEqualTo(record.getClass().getSimpleName() + "[" + String.join(", ", parts)
                + "]");
    }
}
