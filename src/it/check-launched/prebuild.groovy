File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))

It.prepare(basedir, ['libstackdemo.so'])
File recorded = new File((new File(basedir, 'pom.xml').text =~ /<recorded\.launch>([^<]+)</)[0][1])
['README.txt', 'launch-probe.resource-usage.txt', 'launch-probe.launch.log', 'launch-probe.launch.log.libraries'].each {
    assert new File(recorded, it).isFile() : "missing recording ${new File(recorded, it)}: it is recorded on the GPU " +
            "machine by dev/cupti-validate.sh (see ${recorded}/README.txt)"
}
return true
