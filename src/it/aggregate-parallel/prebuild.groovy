// aggregate-parallel: the real nvcc-built libraries of target/test-cuda into the modules' build directories (as a
// module's own nvcc step would put them there); docs gets a host-only library and a text file, no device code.
File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))
It.reactorModules(basedir)
return true
