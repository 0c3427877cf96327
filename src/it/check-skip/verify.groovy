// check-skip: -DcudaStackBudget.skip=true on prepare-agent, check and report: success, one line per goal naming
// the property, no report.
String log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS') : 'the 1 MiB budget would fail the build unless the check is skipped'

// the library was built, so skipping is the only reason nothing was checked
assert new File(basedir, 'target/native/libstackdemo.so').isFile()

// "say so in one line" (interface.md): exactly one log line per goal, naming the property
def skipLines = log.readLines().findAll { it.startsWith('[') && it.contains('cudaStackBudget.skip') }
assert skipLines == [
        '[INFO] Skipping the CUDA launch recorder (prepare-agent): cudaStackBudget.skip is set, so the ' +
                'cudaStackBudget.agentLibrary and log properties are empty: runs are not recorded and the check ' +
                'stays static.',
        '[INFO] Skipping the CUDA stack budget check: cudaStackBudget.skip is set.',
        '[INFO] Skipping the CUDA Stack Budget report: cudaStackBudget.skip is set.'] :
        "expected one log line per goal naming cudaStackBudget.skip, got ${skipLines}"
// AbstractMavenReport's own "Skipping <plugin>:report report goal" would say it a second time for the report
def otherSkipLines = log.readLines().findAll { it.contains('Skipping') && !it.contains('cudaStackBudget.skip') }
assert otherSkipLines.isEmpty() : "a goal said its skip twice: ${otherSkipLines}"
assert !new File(basedir, 'target/cuda-stack-budget-agent').exists() : 'a skipped prepare-agent extracts nothing'
assert !new File(basedir, 'target/reports/cuda-stack-budget.html').exists() : 'a skipped report renders no page'

File out = new File(basedir, 'target/cuda-stack-budget')
assert !new File(out, 'cuda-stack-budget.json').exists() : 'a skipped check must not write the JSON report'
assert !new File(out, 'cuda-stack-budget.html').exists() : 'a skipped check must not write the HTML report'
return true
