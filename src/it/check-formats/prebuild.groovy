File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))

It.prepare(basedir, ['libstackdemo.so'])
// an earlier step of the job wrote its own summary: the check appends, never replaces
new File(basedir, 'step-summary.md').text = '## An earlier step\n'
return true
