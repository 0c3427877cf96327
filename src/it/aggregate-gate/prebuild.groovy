// aggregate-gate: the real nvcc-built libraries of target/test-cuda into the modules' build directories (as a
// module's own nvcc step would put them there); docs gets a host-only library and a text file, no device code.
import java.nio.file.Files
import java.nio.file.StandardCopyOption

File testCuda = new File((new File(basedir, 'pom.xml').text =~ /<it\.testCuda>([^<]+)</)[0][1])
def put = { String module, String library ->
    File source = new File(testCuda, library)
    assert source.isFile() : "${source} is built by src/test/cuda/build-test-binaries.sh (mvn generate-test-resources)"
    File target = new File(basedir, "${module}/target/native/${library}")
    target.parentFile.mkdirs()
    Files.copy(source.toPath(), target.toPath(), StandardCopyOption.REPLACE_EXISTING)
}
put('kernels', 'libjitmixed.so')
put('fine', 'libframes.so')
put('docs', 'libhostonly.so')
new File(basedir, 'docs/target/notes.txt').text = 'no native code here\n'
return true
