// check-dll-dependency: builds the dependency JAR the project's check reads with scanDependencies=true, as the ONNX
// Runtime JAR ships its natives: a real nvcc-built .so (built here, as check-jar builds it) and a small Windows DLL
// (natives/ort_slice.dll: natives/README.md says how it was made), installed into the IT's local repository.
import java.util.zip.ZipEntry
import java.util.zip.ZipOutputStream

File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))
It.prepare(basedir, ['libstackdemo.so'])

File cuda = new File(shared.parentFile.parentFile.parentFile, 'examples/stack-demo/src/main/cuda')
File so = new File(basedir, 'target/natives/libstackdemo.so')
so.parentFile.mkdirs()
def nvcc = ['bash', new File(cuda, 'build.sh').path, new File(cuda, 'stack_demo.cu').path, so.path].execute()
nvcc.waitForProcessOutput(System.out, System.err)
assert nvcc.exitValue() == 0 : "build.sh failed (exit ${nvcc.exitValue()})"

File dll = new File(basedir, 'natives/ort_slice.dll')
assert dll.isFile() : "missing ${dll}"
File dir = new File(localRepositoryPath, 'com/example/cudastackbudget/it/dll-natives/1.0')
dir.mkdirs()
new File(dir, 'dll-natives-1.0.jar').withOutputStream { out ->
    new ZipOutputStream(out).withCloseable { zip ->
        [['native/linux-x86_64/libstackdemo.so', so], ['native/win-x64/ort_slice.dll', dll]].each { name, file ->
            zip.putNextEntry(new ZipEntry(name))
            zip.write(file.bytes)
            zip.closeEntry()
        }
    }
}
new File(dir, 'dll-natives-1.0.pom').text = '''<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example.cudastackbudget.it</groupId>
  <artifactId>dll-natives</artifactId>
  <version>1.0</version>
</project>
'''
return true
