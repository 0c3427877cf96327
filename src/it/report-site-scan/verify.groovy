// report-site-scan: in `mvn site` without check, the report scans with the <reporting> configuration and the
// cudaStackBudget.* project properties; its figures match the recording of the real cuobjdump for libstackdemo.so.
File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))

String log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS') : 'an exceeded budget must not fail the site'
assert !log.contains(':check') : 'check must not run in this IT'
assert log =~ /Scanning for the CUDA Stack Budget report: \S+cuda-stack-budget\.json does not exist \(check has not run\)/

File file = new File(basedir, 'target/site/cuda-stack-budget.html')
assert file.isFile() : "no site page ${file}"
String page = file.getText('UTF-8').replace('&lt;', '<').replace('&gt;', '>').replace('&amp;', '&')
assert page.contains("Figures from the report goal's own scan")

It.assertRecordingMatchesBuild(basedir, 'libstackdemo.so')
def rec = It.parseResourceUsage(It.recording(basedir, 'libstackdemo.so'))
def report = It.readReport(basedir)   // the scan wrote the JSON where check would have
// the devices and budgets of <reporting>; cuobjdump from the project property (else the scan would have failed)
[['h200-141gb', 132 * 2048, 'sm_90a', 'PASS'], ['l4', 58 * 1536, 'sm_80', '<b>FAIL</b>'],
 ['rtx-5090', 170 * 1536, 'sm_120', 'PASS']].each { name, threads, arch, verdict ->
    long reservation = (threads as long) * It.roundup16(It.worst(rec, arch).value)
    assert It.device(report, name).reservationBytes == reservation
    def row = page =~ /(?s)<tr[^>]*>\s*<td[^>]*>${name}<br\s*\/?>sm_\d+, ${String.format(Locale.ROOT, '%,d', threads as long)} threads(.*?)<\/tr>/
    assert row.find() : "no row for ${name}"
    assert row.group(1).contains(verdict) && row.group(1).contains(String.format(Locale.ROOT, '%,d B<', reservation))
}
assert report.devices.size() == 3
return true
