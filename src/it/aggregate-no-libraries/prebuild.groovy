// aggregate-no-libraries: docs gets the host-only library of target/test-cuda (an ELF file without device code) and a
// text file: files the aggregate probes and finds no device code in.
import java.nio.file.Files
import java.nio.file.StandardCopyOption

File testCuda = new File((new File(basedir, 'pom.xml').text =~ /<it\.testCuda>([^<]+)</)[0][1])
File source = new File(testCuda, 'libhostonly.so')
assert source.isFile() : "${source} is built by src/test/cuda/build-test-binaries.sh (mvn generate-test-resources)"
File target = new File(basedir, 'docs/target/native/libhostonly.so')
target.parentFile.mkdirs()
Files.copy(source.toPath(), target.toPath(), StandardCopyOption.REPLACE_EXISTING)
new File(basedir, 'docs/target/notes.txt').text = 'no native code here\n'
return true
