// check-baseline-missing: a missing baseline with ignoreMissingBaseline is one INFO line; nothing is compared.
File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))

String log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
def lines = log.readLines().findAll { it.contains('does not exist') }
assert lines.size() == 1 : lines
assert lines[0] == '[INFO] Baseline src/budget/cuda-stack-budget-0.9.json does not exist: nothing to compare with ' +
        '(a first release?); ignoreMissingBaseline is set, so the check goes on without one' : lines[0]
def report = It.readReport(basedir)
assert !report.containsKey('baseline')
assert !(report.checks ?: []).any { it.category == 'baseline' }
assert It.device(report, 'h200-141gb').status == 'pass'
return true
