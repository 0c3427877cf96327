// check-reactor-parallel: the reports of every module are byte-identical between the serial and the -T 2C build.
String log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
// build.log is the last invocation's: the -T 2C one really ran modules on several threads
assert log.contains('MultiThreadedBuilder') : 'the second build did not run with -T 2C'

def modules = ['frames', 'mixed', 'compressed', 'demo']
def outputs = ['cuda-stack-budget.json', 'cuda-stack-budget.txt', 'cuda-stack-budget.html']
modules.each { module ->
    outputs.each { name ->
        File serial = new File(basedir, "${module}/target/serial/${name}")
        File parallel = new File(basedir, "${module}/target/parallel/${name}")
        assert serial.isFile() : "${serial} missing"
        assert parallel.isFile() : "${parallel} missing"
        assert serial.bytes == parallel.bytes : "${module}/${name} differs between the serial and the -T 2C build"
    }
    def report = new groovy.json.JsonSlurper().parse(new File(basedir, "${module}/target/parallel/cuda-stack-budget.json"))
    assert report.schemaVersion == 2 && report.records > 0 : "${module}: no kernels read"
}
// the modules read different libraries: no report is another module's
def jsons = modules.collect { new File(basedir, "${it}/target/parallel/cuda-stack-budget.json").text }
assert jsons.toSet().size() == modules.size()
return true
