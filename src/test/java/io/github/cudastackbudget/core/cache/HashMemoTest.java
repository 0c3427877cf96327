package io.github.cudastackbudget.core.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Remembered content hashes (issue 11): served only for a file whose size, times, inode and device are unchanged. */
class HashMemoTest {

    @TempDir
    Path tmp;

    /** No racy window: the files of a test are seconds old at most (the real window is 2 s). */
    private HashMemo memo() {
        return new HashMemo(tmp.resolve("cache"), 0);
    }

    private Path file(String name, String content) throws Exception {
        Path file = Files.writeString(tmp.resolve(name), content);
        Thread.sleep(25); // the hashing starts after the file's times (kept by a clock of a few ms per tick)
        return file;
    }

    @Test
    void anUnchangedFileIsNotReadAgain() throws Exception {
        Path file = file("lib.so", "device code");
        HashMemo.Hash first = memo().of(file, 2);
        HashMemo.Hash second = memo().of(file, 2);

        assertThat(first.remembered()).isFalse();
        assertThat(second.remembered()).isTrue();
        assertThat(second.value()).isEqualTo(first.value()).isEqualTo(ContentHash.of(file, 1));
        assertThat(tmp.resolve("cache").resolve(HashMemo.SUBDIRECTORY)).isDirectory();
    }

    @Test
    void aChangedFileIsReadAgainEvenWithItsSizeAndModificationTimeRestored() throws Exception {
        Path file = file("lib.so", "device code");
        FileTime modified = Files.getLastModifiedTime(file);
        String before = memo().of(file, 2).value();
        memo().of(file, 2);
        Thread.sleep(25); // the change time moves by at least one tick of the file system's clock
        Files.writeString(file, "DEVICE CODE"); // the same size
        Files.setLastModifiedTime(file, modified); // as an archive or touch -d would: the change time moves on

        HashMemo.Hash after = memo().of(file, 2);

        assertThat(after.remembered()).isFalse();
        assertThat(after.value()).isNotEqualTo(before).isEqualTo(ContentHash.of(file, 1));
    }

    @Test
    void aFileReplacedByAnotherIsReadAgain() throws Exception {
        Path file = file("lib.so", "device code");
        memo().of(file, 2);
        Path other = file("other.so", "DEVICE CODE");
        Files.move(other, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);

        HashMemo.Hash after = memo().of(file, 2);

        assertThat(after.remembered()).isFalse();
        assertThat(after.value()).isEqualTo(ContentHash.of(file, 1));
    }

    @Test
    void aFileChangedWithinTheRacyWindowIsNotRemembered() throws Exception {
        Path file = file("lib.so", "device code");
        // a window of an hour instead of 2 s: the file is inside it however slow the machine is
        HashMemo racy = new HashMemo(tmp.resolve("cache"), java.util.concurrent.TimeUnit.HOURS.toNanos(1));

        assertThat(racy.of(file, 2).remembered()).isFalse();
        assertThat(racy.of(file, 2).remembered()).as("changed within the window: hashed every time").isFalse();
        assertThat(Files.exists(tmp.resolve("cache").resolve(HashMemo.SUBDIRECTORY))).isFalse();
    }

    @Test
    void aCorruptMemoIsIgnoredAndRewritten() throws Exception {
        Path file = file("lib.so", "device code");
        String hash = memo().of(file, 2).value();
        Path dir = tmp.resolve("cache").resolve(HashMemo.SUBDIRECTORY);
        try (var memos = Files.list(dir)) {
            Path memoFile = memos.findFirst().orElseThrow();
            Files.writeString(memoFile, Files.readString(memoFile).replace(hash, "0".repeat(63) + "x"));
        }

        assertThat(memo().of(file, 2)).isEqualTo(new HashMemo.Hash(hash, false));
        assertThat(memo().of(file, 2)).isEqualTo(new HashMemo.Hash(hash, true));
    }

    @Test
    void withoutACacheDirectoryEveryFileIsRead() throws Exception {
        Path file = file("lib.so", "device code");
        HashMemo none = new HashMemo(null);

        none.of(file, 1);
        assertThat(none.of(file, 1).remembered()).isFalse();
    }
}
