// check-cache: the first execution read libstackdemo.so and stored it, the second was served from the cache, and the
// two executions' reports are byte-identical; the third, the second's check into the same folder, was replayed from the
// check-result cache (issue 11): nothing read, the same reports.
String log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')

File cache = new File(basedir, 'target/kernel-cache')
def misses = log.readLines().findAll { it.contains('Kernel cache: ') }
assert misses.size() == 2 : "one cache line per check execution: ${misses}"
assert misses[0].contains("Kernel cache: 0 hit(s), 1 miss(es) in ${cache.canonicalPath}") : misses[0]
assert misses[1].contains("Kernel cache: 1 hit(s), 0 miss(es) in ${cache.canonicalPath}") : misses[1]

def progress = log.readLines().findAll { it =~ /\[1\/1\] libstackdemo\.so: \d+ kernel records/ }
assert progress.size() == 2 : progress
assert !progress[0].endsWith('(cached)') : progress[0]
assert progress[1].endsWith('(cached)') : progress[1]

def entries = cache.listFiles().findAll { it.name.endsWith('.scan') }
assert entries.size() == 1 : "one entry: ${cache.listFiles()*.name}"
assert !cache.listFiles().any { it.name.endsWith('.tmp') } : 'a temporary file was left in the cache'

def replayed = log.readLines().findAll { it.contains('Check-result cache: ') }
assert replayed.size() == 1 : "one replay, by the third execution: ${replayed}"
assert replayed[0].contains('Check-result cache: 1 input file(s) unchanged (') : replayed[0]
assert replayed[0].contains("from ${new File(cache, 'results').canonicalPath}") : replayed[0]
def results = new File(cache, 'results').listFiles().findAll { it.name.endsWith('.run') }
assert results.size() == 2 : "one result per distinct check (miss, hit): ${results*.name}"
// the replay logs what the check it replays logged from the report on (the listing, the verdicts, the summary)
def segments = [:]
String current = null
log.readLines().each { line ->
    def start = line =~ /:check \((miss|hit|replay)\)/
    if (start.find()) {
        current = start.group(1)
        segments[current] = []
    } else if (current != null) {
        segments[current] << line
    }
}
def fromReport = { List lines ->
    int at = lines.findIndexOf { it.contains('CUDA kernel stack budget') }
    assert at >= 0 : lines
    def kept = lines.subList(at, lines.size()).takeWhile { !(it ==~ /\[INFO\] -{10,}/) && !(it =~ /--- .*:/) }
    // Maven's blank line between executions
    while (!kept.isEmpty() && kept[-1].trim() == '[INFO]') {
        kept = kept.subList(0, kept.size() - 1)
    }
    kept
}
assert segments.keySet() == ['miss', 'hit', 'replay'] as Set : segments.keySet()
assert fromReport(segments.replay).size() > 5
assert fromReport(segments.replay) == fromReport(segments.hit)
assert !log.contains('WARNING] Kernel cache') : 'the cache warned'

['cuda-stack-budget.json', 'cuda-stack-budget.txt', 'cuda-stack-budget.html'].each { name ->
    File miss = new File(basedir, "target/run-miss/${name}")
    File hit = new File(basedir, "target/run-hit/${name}")
    assert miss.isFile() && hit.isFile() : "${name} missing"
    assert miss.bytes == hit.bytes : "${name} differs between the read and the cached read"
}
def report = new groovy.json.JsonSlurper().parse(new File(basedir, 'target/run-hit/cuda-stack-budget.json'))
assert report.schemaVersion == 2 && report.functions.size() > 0 && report.records > 0
return true
