// help: what `mvn cuda-stack-budget:help -Ddetail -Dgoal=check` prints.
String log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')

// the plugin's description: one paragraph (the POM's <description> once had a hard line break, printed as a line
// starting with the POM's indent)
def lines = log.readLines()
int at = lines.findIndexOf { it.contains('Fails the build when the CUDA kernels a project ships') }
assert at >= 0 : 'help does not print the plugin description'
assert !lines.any { it ==~ /\s{3,}device memory for per-thread stacks.*/ } : 'the description keeps a hard line break'

// the check goal: the plugin's own reader (cuobjdump only as a fallback or on request) and all three reports
String text = log.replaceAll(/\s+/, ' ')
assert text.contains("with the plugin's own reader, no CUDA toolkit needed") : 'help of check does not name the reader'
assert !text.contains('from the built libraries (cuobjdump --dump-resource-usage)') : 'help still names cuobjdump as the reader'
['cuda-stack-budget.json', 'cuda-stack-budget.txt', 'cuda-stack-budget.html'].each {
    assert text.contains(it) : "help of check does not name the report ${it}"
}
// every parameter the goal has is listed with its user property
['maxReservation', 'launchLog', 'libraryLog', 'failOnViolation'].each {
    assert text.contains("User property: cudaStackBudget.${it}") : "help of check lacks the property of ${it}"
}
return true
