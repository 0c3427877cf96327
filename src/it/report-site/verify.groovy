// report-site: the site page renders the JSON that check wrote, with the figures of the recording of the real
// cuobjdump for libstackdemo.so; an exceeded budget shows as FAIL and does not fail `mvn site`.
File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))

String log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS') : 'an exceeded budget must not fail the site'
assert log.contains('Generating "CUDA Stack Budget" report')
assert !log.contains('LinkageError') && !log.contains('skipping') : 'the site plugin skipped the report'
// the page renders the JSON of check (up to date: written after the library, after the POM)
assert log =~ /CUDA Stack Budget report from \S+cuda-stack-budget\.json: \S+ is up to date/
assert !log.contains('Scanning for the CUDA Stack Budget report')
assert !log.contains('would not show this page') : 'maven-site-plugin is pinned: no warning'

File file = new File(basedir, 'target/site/cuda-stack-budget.html')
assert file.isFile() : "no site page ${file}"
String html = file.getText('UTF-8')
String page = html.replace('&lt;', '<').replace('&gt;', '>').replace('&quot;', '"').replace('&#39;', "'").replace('&amp;', '&')
assert page.contains('<title>') && page =~ /<h1>CUDA Stack Budget<\/h1>/
assert html.contains('class="table') : 'the tables come from the skin (Doxia sink), not from the plugin'

It.assertRecordingMatchesBuild(basedir, 'libstackdemo.so')
def rec = It.parseResourceUsage(It.recording(basedir, 'libstackdemo.so'))
def report = It.readReport(basedir)

// devices, verdicts, reservations (exact bytes in their column), budgets, chosen arch, worst kernel
def expected = [
        // device      resident threads  chosen arch  verdict  budget
        ['h200-141gb', 132 * 2048,       'sm_90a',    'PASS',  4L << 30],
        ['l4',         58 * 1536,        'sm_80',     'FAIL',  256L << 20],
        ['rtx-5090',   170 * 1536,       'sm_120',    'PASS',  null],
]
expected.each { name, threads, arch, verdict, budget ->
    def worst = It.worst(rec, arch)
    long reservation = (threads as long) * It.roundup16(worst.value)
    assert It.device(report, name).reservationBytes == reservation
    String grouped = String.format(Locale.ROOT, '%,d', reservation)
    def row = page =~ /(?s)<tr[^>]*>\s*<td[^>]*>${java.util.regex.Pattern.quote(name)}<br\s*\/?>sm_\d+, ${String.format(Locale.ROOT, '%,d', threads as long)} threads(.*?)<\/tr>/
    assert row.find() : "no row for ${name} in the devices table"
    String cells = row.group(1)
    assert cells.contains(verdict) : "${name}: verdict ${verdict} expected in ${cells}"
    assert cells.contains("${grouped} B<") : "${name}: reservation ${grouped} B not in its row"
    assert cells.contains("runs ${arch}</td>") : "${name}: chosen arch ${arch}"
    assert budget == null ? cells.contains('>none<') && page.contains('no budget (set maxReservation')
            : page.contains(String.format(Locale.ROOT, 'budget %s (%,d B)', budget == 4L << 30 ? '4.00 GiB' : '256.00 MiB', budget))
    assert cells.contains('libstackdemo.so')
}
// the L4 falls back to sm_80 and its budget is exceeded: the violation names the kernel
assert page.contains('no sm_89 SASS: runs sm_80')
assert page =~ /(?s)<h2>Budget violations<\/h2>.*<b>l4<\/b>: stack reservation 867\.28 MiB \(909,410,304 B\) exceeds maxReservation 256\.00 MiB/
// the worst kernels, readable, with STACK LOCAL SHARED REG
assert page.contains('<code>demo::stageTiles(float const*, float*, int, int)</code>')
assert page.contains('<code>void demo::sortScratch<10200>(int const*, int*, int)</code>')
assert page =~ /(?s)<th>STACK \(B\)<\/th>\s*<th>LOCAL \(B\)<\/th>\s*<th>SHARED \(B\)<\/th>\s*<th>REG<\/th>/
assert page.contains('>12,288<') : 'the sm_90a frame of stageTiles'
// the library table: kernels, arches, used by
assert page =~ /(?s)<h2>Libraries<\/h2>.*libstackdemo\.so.*sm_80, sm_90, sm_90a, sm_120.*io\.github\.cudastackbudget\.it:report-site:1\.0-SNAPSHOT/
// the chart: an SVG image in a figure, one bar per device
def img = html =~ /<img src="data:image\/svg\+xml;base64,([A-Za-z0-9+\/=]+)"/
assert img.find() : 'no chart'
String svg = new String(img.group(1).decodeBase64(), 'UTF-8')
assert svg.startsWith('<svg') && ['h200-141gb', 'l4', 'rtx-5090'].every { svg.contains(">${it}<") }
return true
