File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))

It.prepare(basedir, ['libstackdemo.so'])
return true
