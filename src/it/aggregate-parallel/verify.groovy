// aggregate-parallel: the aggregate reports of the serial and the -T 2 build are byte-identical; under -T 2 the lines
// of check (bound in fine) and of the aggregate start with the module's artifactId, Maven's own lines do not.
import groovy.json.JsonSlurper

String log = new File(basedir, 'build.log').text
// build.log holds both invocations, the serial one first; the -T 2 one really ran modules on several threads
assert log.contains('MultiThreadedBuilder') : 'the second build did not run with -T 2'
assert log.count('BUILD FAILURE') == 2
assert log.contains('MojoFailureException')

['cuda-stack-budget.json', 'cuda-stack-budget.txt', 'cuda-stack-budget.html'].each { name ->
    File serial = new File(basedir, "target/serial/${name}")
    File parallel = new File(basedir, "target/parallel/${name}")
    assert serial.isFile() : "${serial} missing"
    assert parallel.isFile() : "${parallel} missing"
    assert serial.bytes == parallel.bytes : "the aggregate's ${name} differs between the serial and the -T 2 build"
}
def report = new JsonSlurper().parse(new File(basedir, 'target/parallel/cuda-stack-budget.json'))
assert report.libraries*.usedBy.toSorted() == ['io.github.cudastackbudget.it:fine:1.0-SNAPSHOT',
                                               'io.github.cudastackbudget.it:kernels:1.0-SNAPSHOT']
assert report.violations.size() == 1 && report.violations[0].device == 'h200-141gb'
// fine's own check passed and wrote its reports
assert new File(basedir, 'fine/target/parallel/cuda-stack-budget.json').isFile()

// module names: every line of the plugin's goals is prefixed, in check (fine) and in the aggregate (the root)
List<String> lines = log.readLines()
// the lines of a goal's execution in the serial (first) or the -T 2 (last) build
def plugin = { String goal, String module, boolean parallel ->
    def header = { String line -> line.contains(":${goal} (") && line.contains("@ ${module} ---") }
    int start = parallel ? lines.findLastIndexOf(header) : lines.findIndexOf(header)
    assert start >= 0 : "no ${goal} execution on ${module} in build.log"
    // the goal's lines: up to the next mojo or module header, Maven's summary, or the end
    int end = (start + 1..<lines.size()).find { i -> lines[i].startsWith('[INFO] --- ') || lines[i].contains('-----<') ||
            lines[i].startsWith('[INFO] Reactor Summary') || lines[i] == '[INFO] ------------------------------------------------------------------------' } ?: lines.size()
    return lines.subList(start + 1, end).findAll { it ==~ /\[(INFO|WARNING|ERROR)\] .+/ }
}
def check = plugin('check', 'fine', true)
assert check.size() > 5 : check
check.each { assert it =~ /^\[(INFO|WARNING|ERROR)\] \[fine\] / : "check's line without its module: ${it}" }
assert check.any { it.contains('[fine] Reading 1 file(s) with device code') }
def aggregate = plugin('aggregate', 'aggregate-parallel', true)
assert aggregate.size() > 5 : aggregate
aggregate.each { assert it =~ /^\[(INFO|WARNING|ERROR)\] \[aggregate-parallel\] / : "aggregate's line without its module: ${it}" }
assert aggregate.any { it.contains('[aggregate-parallel] Module io.github.cudastackbudget.it:docs:1.0-SNAPSHOT: no native libraries') }

// the serial build's lines are unchanged
def serialCheck = plugin('check', 'fine', false)
assert serialCheck.any { it.startsWith('[INFO] Reading 1 file(s) with device code') } : serialCheck
serialCheck.each { assert !it.contains('[fine]') : "a serial build's line with a module prefix: ${it}" }
plugin('aggregate', 'aggregate-parallel', false).each {
    assert !it.contains('[aggregate-parallel]') : "a serial build's line with a module prefix: ${it}"
}
// Maven's own lines never carry one
assert !log.contains('[INFO] [aggregate-parallel] Building')
return true
