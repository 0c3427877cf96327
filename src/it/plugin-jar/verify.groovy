// plugin-jar: the installed plugin jar's META-INF/m2e/lifecycle-mapping-metadata.xml (parsed, its goals and actions)
// and its entries' times (project.build.outputTimestamp).
import java.time.Instant
import java.time.OffsetDateTime
import java.util.jar.JarFile
import groovy.xml.XmlSlurper

String pom = new File(basedir, 'pom.xml').text
def (groupId, artifactId, version) = (pom =~ /<it\.pluginPath>([^<]+)</)[0][1].split(':')
String timestamp = (pom =~ /<it\.outputTimestamp>([^<]+)</)[0][1]
File jarFile = new File(localRepositoryPath, "${groupId.replace('.', '/')}/${artifactId}/${version}/" +
        "${artifactId}-${version}.jar")
assert jarFile.isFile() : "no installed plugin jar at ${jarFile}"

new JarFile(jarFile).withCloseable { jar ->
    def entry = jar.getEntry('META-INF/m2e/lifecycle-mapping-metadata.xml')
    assert entry != null : 'the plugin jar has no META-INF/m2e/lifecycle-mapping-metadata.xml'
    def metadata = new XmlSlurper().parse(jar.getInputStream(entry))
    assert metadata.name() == 'lifecycleMappingMetadata'
    Map actions = [:]
    metadata.pluginExecutions.pluginExecution.each { execution ->
        String action = execution.action.children()[0].name()
        execution.pluginExecutionFilter.goals.goal.each { goal ->
            assert !actions.containsKey(goal.text()) : "goal ${goal} mapped twice"
            actions[goal.text()] = action
            if (action == 'execute') {
                assert execution.action.execute.runOnIncremental.text() == 'false' : "${goal}: runOnIncremental"
                assert execution.action.execute.runOnConfiguration.text() == 'false' : "${goal}: runOnConfiguration"
            }
        }
    }
    assert actions == [check: 'execute', aggregate: 'execute', 'prepare-agent': 'ignore'] : "m2e actions: ${actions}"
    // the goals it maps exist (aggregate where that goal is built), and every lifecycle goal of the plugin is mapped
    def descriptor = new XmlSlurper().parse(jar.getInputStream(jar.getEntry('META-INF/maven/plugin.xml')))
    def goals = descriptor.mojos.mojo.goal*.text() as Set
    assert goals.containsAll(['check', 'prepare-agent']) : "descriptor goals: ${goals}"
    def unmapped = goals - actions.keySet() - ['help', 'report']
    assert unmapped.isEmpty() : "goals m2e does not know how to treat: ${unmapped}"

    // reproducible: every entry's time is project.build.outputTimestamp (maven-jar-plugin writes it, in UTC)
    assert timestamp ==~ /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/ : "project.build.outputTimestamp ${timestamp}"
    long expected = OffsetDateTime.parse(timestamp).toInstant().toEpochMilli()
    def others = jar.entries().toList().findAll { it.time != expected && it.lastModifiedTime.toMillis() != expected }
    assert others.isEmpty() : "entries not at ${timestamp}: ${others.take(5).collect { it.name + '=' + Instant.ofEpochMilli(it.time) }}"
}
return true
