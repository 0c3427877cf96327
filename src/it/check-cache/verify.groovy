// check-cache: the first execution read libstackdemo.so and stored it, the second was served from the cache, and the
// two executions' reports are byte-identical.
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
