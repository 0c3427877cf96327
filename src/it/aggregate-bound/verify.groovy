// aggregate-bound: bound in the root POM and inherited, the aggregate acts once per build, for the last module that
// reaches it (serial: docs; under -T 2 whichever finishes last), and writes one report under the root's target.
import groovy.json.JsonSlurper

String log = new File(basedir, 'build.log').text
// build.log holds both invocations, the serial one first
assert log.count('BUILD SUCCESS') == 2
assert log.contains('MultiThreadedBuilder') : 'the second build did not run with -T 2'
int second = log.indexOf('MultiThreadedBuilder')
String serial = log.substring(0, second)
String parallel = log.substring(second)

[serial, parallel].each { String build ->
    // every module reached the execution: three counted and waited, the fourth acted, once
    assert build.count(':aggregate (reactor-budget) @ ') == 4 : build
    assert build.count('Aggregating the CUDA stack budget of 4 module(s)') == 1
    (1..3).each { n ->
        assert build.count("The CUDA stack budget aggregate runs once the last module reaches it (${n} of 4 so far)") == 1
    }
    // the acting execution comes after every other one
    assert build.indexOf('Aggregating the CUDA stack budget') > build.lastIndexOf('(3 of 4 so far)')
    assert build.contains('Module io.github.cudastackbudget.it:docs:1.0-SNAPSHOT: no native libraries')
}
// serially the last module in reactor order acts
assert serial =~ /(?s):aggregate \(reactor-budget\) @ docs ---\s*\n\[INFO\] Aggregating the CUDA stack budget/

['serial', 'parallel'].each { out ->
    File json = new File(basedir, "target/${out}/cuda-stack-budget.json")
    assert json.isFile() : "no aggregate JSON under the root's target: ${json}"
    def report = new JsonSlurper().parse(json)
    assert report.libraries*.usedBy.toSorted() == ['io.github.cudastackbudget.it:fine:1.0-SNAPSHOT',
                                                   'io.github.cudastackbudget.it:kernels:1.0-SNAPSHOT']
    assert report.devices.every { it.status == 'pass' }
    assert report.violations.isEmpty()
    // nowhere else
    ['kernels', 'fine', 'docs'].each { assert !new File(basedir, "${it}/target/${out}").exists() }
}
assert new File(basedir, 'target/serial/cuda-stack-budget.json').bytes ==
        new File(basedir, 'target/parallel/cuda-stack-budget.json').bytes
return true
