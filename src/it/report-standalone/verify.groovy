// report-standalone: `cuda-stack-budget:report` alone scans (no check ran) and writes target/reports/.
File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))

String log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS') : 'exceeded budgets must not fail the report goal'
assert log =~ /Scanning for the CUDA Stack Budget report: \S+cuda-stack-budget\.json does not exist \(check has not run\)/
// no maven-site-plugin pinned: Maven's default (3.12.1 on Maven 3.9, 3.3 on Maven 3.8) cannot show the page
def warning = log =~ /\[WARNING\] `mvn site` would not show this page: The CUDA Stack Budget report needs maven-site-plugin 3\.20\.0 or newer \(Doxia 2\), but this build uses maven-site-plugin (3\.12\.1|3\.3): pin org\.apache\.maven\.plugins:maven-site-plugin:\d+\.\d+\.\d+ in <build><pluginManagement>/
assert warning.find() : 'no warning about the default maven-site-plugin'

File file = new File(basedir, 'target/reports/cuda-stack-budget.html')
assert file.isFile() : "no standalone page ${file}"
assert !new File(basedir, 'target/site/cuda-stack-budget.html').exists()
// the scan wrote its JSON where check would have
def report = It.readReport(basedir)
String page = file.getText('UTF-8').replace('&lt;', '<').replace('&gt;', '>').replace('&amp;', '&')

It.assertRecordingMatchesBuild(basedir, 'libstackdemo.so')
def rec = It.parseResourceUsage(It.recording(basedir, 'libstackdemo.so'))
[['h200-141gb', 132 * 2048, 'sm_90a'], ['l4', 58 * 1536, 'sm_80']].each { name, threads, arch ->
    long reservation = (threads as long) * It.roundup16(It.worst(rec, arch).value)
    assert It.device(report, name).reservationBytes == reservation
    assert It.device(report, name).status == 'fail'
    def row = page =~ /(?s)<tr[^>]*>\s*<td[^>]*>${name}<br\s*\/?>sm_\d+, ${String.format(Locale.ROOT, '%,d', threads as long)} threads(.*?)<\/tr>/
    assert row.find() : "no row for ${name}"
    assert row.group(1).contains('<b>FAIL</b>') && row.group(1).contains(String.format(Locale.ROOT, '%,d B<', reservation))
}
assert page.contains("Figures from the report goal's own scan")
assert page.contains('<code>demo::stageTiles(float const*, float*, int, int)</code>')
return true
