// check-skip-goal: the per-goal skips cudaStackBudget.check.skip, .prepareAgent.skip and .report.skip: success, one
// line per goal naming its own property, no report.
String log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS') : 'the 1 MiB budget would fail the build unless the check is skipped'
assert new File(basedir, 'target/native/libstackdemo.so').isFile()

def skipLines = log.readLines().findAll { it.startsWith('[') && it.contains('Skipping') }
assert skipLines == [
        '[INFO] Skipping the CUDA launch recorder (prepare-agent): cudaStackBudget.prepareAgent.skip is set, so the ' +
                'cudaStackBudget.agentLibrary and log properties are empty: runs are not recorded and the check ' +
                'stays static.',
        '[INFO] Skipping the CUDA stack budget check: cudaStackBudget.check.skip is set.',
        '[INFO] Skipping the CUDA Stack Budget report: cudaStackBudget.report.skip is set.'] :
        "expected one log line per goal naming its own skip property, got ${skipLines}"
assert !new File(basedir, 'target/cuda-stack-budget-agent').exists() : 'a skipped prepare-agent extracts nothing'
assert !new File(basedir, 'target/reports/cuda-stack-budget.html').exists() : 'a skipped report renders no page'
assert !new File(basedir, 'target/cuda-stack-budget/cuda-stack-budget.json').exists() : 'a skipped check writes no JSON'
return true
