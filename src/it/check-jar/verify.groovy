// check-jar: the library inside the project's JAR, read in place by the native reader, against the recording of the
// real cuobjdump (made on an H200 from the same source and build.sh) for the same library.
File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))

String log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
assert log.contains('library entr') && log.contains('of 1 JAR(s) in place using native reader')
assert !log.contains('no-such-cuobjdump') : 'cuobjdump must not be needed for a JAR'

def rec = It.parseResourceUsage(It.recording(basedir, 'libstackdemo.so'))
def report = It.readReport(basedir)
String label = 'check-jar-1.0-SNAPSHOT.jar!/native/linux-x86_64/libstackdemo.so'
assert report.libraries.size() == 1 : "only the JAR entry has device code: ${report.libraries*.path}"
assert report.kernels.every { it.library == label } : "labels: ${report.kernels*.library.unique()}"
int records = rec.values().sum { it.size() } as int
assert report.kernels.size() == records : "${report.kernels.size()} kernel records, the recording has ${records}"
rec.each { arch, functions ->
    functions.each { name, stack ->
        def k = report.kernels.find { it.name == name && it.arch == arch }
        assert k != null : "no kernel record ${name} ${arch}"
        assert k.stack == stack : "${name} ${arch}: stack ${k.stack}, recorded ${stack}"
    }
}
def worst = It.worst(rec, 'sm_90a')
def h200 = It.device(report, 'h200-141gb')
assert h200.status == 'pass'
assert h200.worstKernel.library == label
assert h200.worstKernel.name == worst.key
assert h200.reservationBytes == 270336L * It.roundup16(worst.value)
return true
