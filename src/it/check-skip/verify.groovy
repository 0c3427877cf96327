// check-skip: -DcudaStackBudget.skip=true: success, one line naming the property, no report.
String log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS') : 'the 1 MiB budget would fail the build unless the check is skipped'

// the library was built, so skipping is the only reason nothing was checked
assert new File(basedir, 'target/native/libstackdemo.so').isFile()

// "say so in one line" (interface.md): exactly one log line, naming the property
def skipLines = log.readLines().findAll { it.startsWith('[') && it.contains('cudaStackBudget.skip') }
assert skipLines.size() == 1 : "expected one log line naming cudaStackBudget.skip, got ${skipLines}"

File out = new File(basedir, 'target/cuda-stack-budget')
assert !new File(out, 'cuda-stack-budget.json').exists() : 'a skipped check must not write the JSON report'
assert !new File(out, 'cuda-stack-budget.html').exists() : 'a skipped check must not write the HTML report'
return true
