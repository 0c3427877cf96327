// check-launched-missing-log: one clear line, a MojoExecutionException (misuse), a report that holds only the error
String log = new File(basedir, 'build.log').text
assert log.contains('BUILD FAILURE')
assert log.contains('Deleted the log of an earlier run (append is false)')
File launchLog = new File(basedir, 'target/cuda-stack-budget/launch.log')
assert !launchLog.exists()
String expected = "the launch log ${launchLog.absolutePath} (launchLog) does not exist: run the tests (or the job) " +
        'under the prepare-agent goal\'s injection library first, so that it writes the log (a build that skips the ' +
        'tests: -DcudaStackBudget.launchLog= checks statically)'
assert log.contains(expected) : 'the error must name launchLog, the file and what to do'
assert log.contains('MojoExecutionException')
assert !log.contains('MojoFailureException')
// issue 12: the report of a check that could not run holds the error and nothing else (no figures of any run)
def json = new groovy.json.JsonSlurper().parse(new File(basedir, 'target/cuda-stack-budget/cuda-stack-budget.json'))
assert json.keySet() == ['schemaVersion', 'error'] as Set : json.keySet()
assert json.error.contains('(launchLog) does not exist')
return true
