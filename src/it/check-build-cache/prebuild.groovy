File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))

It.prepare(basedir, ['libstackdemo.so'])
// a cache left by an earlier run of this IT would make the first invocation a hit
new File(basedir, 'build-cache-store').deleteDir()
return true
