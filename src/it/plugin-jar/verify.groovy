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

    // reproducible: every entry of the plugin's own (its classes, resources and descriptors) carries
    // project.build.outputTimestamp (maven-jar-plugin writes it, in UTC); the libraries shaded in (issue 11) keep the
    // times of their own released jars, the same on every build
    assert timestamp ==~ /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/ : "project.build.outputTimestamp ${timestamp}"
    long expected = OffsetDateTime.parse(timestamp).toInstant().toEpochMilli()
    def own = jar.entries().toList().findAll { it.name.startsWith('io/github/cudastackbudget/') ||
            it.name.startsWith('META-INF/maven/io.github.cudastackbudget/') || it.name == 'META-INF/maven/plugin.xml' ||
            it.name.startsWith('META-INF/m2e/') }
    assert own.size() > 100 : "the plugin's own entries: ${own.size()}"
    def others = own.findAll { it.time != expected && it.lastModifiedTime.toMillis() != expected }
    assert others.isEmpty() : "entries not at ${timestamp}: ${others.take(5).collect { it.name + '=' + Instant.ofEpochMilli(it.time) }}"

    // the core's libraries are inside the jar (issue 11: Maven resolves two dependencies when it loads the plugin,
    // not thirteen), with the manifest that keeps jackson-core's versioned classes
    ['com/github/luben/zstd/ZstdDecompressCtx.class', 'net/jpountz/lz4/LZ4Factory.class',
     'com/fasterxml/jackson/core/JsonFactory.class', 'org/apache/commons/compress/archivers/zip/ZipFile.class',
     'org/apache/commons/exec/DefaultExecutor.class'].each {
        assert jar.getEntry(it) != null : "the plugin jar lacks the shaded ${it}"
    }
    assert jar.manifest.mainAttributes.getValue('Multi-Release') == 'true' : 'Multi-Release manifest attribute'
    assert jar.manifest.mainAttributes.getValue('Main-Class') == 'io.github.cudastackbudget.cli.Main'
    assert !jar.entries().toList().any { it.name.endsWith('module-info.class') } : 'a shaded module-info.class'
}

// the installed POM is the dependency-reduced one: besides what Maven provides and the tests', only the report API
def installedPom = new XmlSlurper().parse(new File(jarFile.path.replaceAll(/\.jar$/, '.pom')))
def runtime = installedPom.dependencies.dependency.findAll { !(it.scope.text() in ['provided', 'test']) }
        .collect { it.groupId.text() + ':' + it.artifactId.text() }
assert runtime == ['org.apache.maven.reporting:maven-reporting-api'] : "the installed POM's runtime dependencies: ${runtime}"
return true
