// check-build-cache: three invocations in one build.log, each starting where the extension loads its configuration.
import groovy.json.JsonSlurper

String log = new File(basedir, 'build.log').text
def runs = log.split(/(?m)^\[INFO\] Loading cache configuration from /).drop(1)
assert runs.size() == 3 : "expected three builds with the build cache extension, found ${runs.size()}"
String checkRan = '--- cuda-stack-budget:'

// (1) a cache miss: the check runs, passes its 4 GiB budget, and the build is saved to the cache
assert runs[0].contains('Local build was not found by checksum') : 'the first build must fill the cache'
assert runs[0].contains(checkRan) && runs[0].contains('Saved Build to local file')
assert runs[0].contains('BUILD SUCCESS')

// (2) the same sources with a stricter -D budget: the reconcile entry sees it, the check runs again and fails
assert runs[1].contains('Found cached build') : 'the second build has the same cache key (a -D changes no input)'
assert runs[1].contains('Plugin parameter mismatch found. Parameter: maxReservation, expected: 4 GiB, actual: 256MiB')
assert runs[1].contains(checkRan) : 'a changed budget must never be served from the cache'
['h200-141gb', 'l4', 'rtx-5090'].each { device ->
    assert runs[1].contains("[ERROR] ${device}: stack reservation ") && runs[1].contains('exceeds maxReservation 256.00 MiB')
}
assert runs[1].contains('BUILD FAILURE')

// (3) the first build's configuration again, after clean: a cache hit; the check is not run, its reports come back
assert runs[2].contains('Skipping plugin execution (cached): cuda-stack-budget:check')
assert !runs[2].contains(checkRan) && !runs[2].contains('Plugin parameter mismatch')
assert runs[2].contains('BUILD SUCCESS')
File out = new File(basedir, 'target/cuda-stack-budget')
['cuda-stack-budget.json', 'cuda-stack-budget.txt', 'cuda-stack-budget.html'].each {
    assert new File(out, it).isFile() : "the cache hit did not restore ${it} (clean removed it)"
}
// the restored reports are the cached build's (4 GiB, all pass), not the failed second build's
Map report = new JsonSlurper().parse(new File(out, 'cuda-stack-budget.json')) as Map
assert report.devices*.name.sort() == ['h200-141gb', 'l4', 'rtx-5090']
assert report.devices.every { it.status == 'pass' && it.budgetBytes == 4L * 1024 * 1024 * 1024 } :
        "restored devices: ${report.devices.collect { [it.name, it.status, it.budgetBytes] }}"
assert report.violations.isEmpty()
return true
