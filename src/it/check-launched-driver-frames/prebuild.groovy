File pom = new File(basedir, 'pom.xml')
File recorded = new File((pom.text =~ /<recorded\.launch>([^<]+)</)[0][1])
['README.txt', 'nvrtc.launch.log', 'nvrtc.launch.log.libraries', 'launch-probe.resource-usage.txt'].each {
    assert new File(recorded, it).isFile() : "missing recording ${new File(recorded, it)}: it is recorded on the GPU " +
            "machine by dev/driver-frames-validate.sh (see ${recorded}/README.txt)"
}
File shared = new File((pom.text =~ /<it\.shared>([^<]+)</)[0][1])
new File(shared, 'replay-cuobjdump.sh').setExecutable(true, false)
return true
