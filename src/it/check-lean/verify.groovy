// check-lean: check with skip=true ("skipped") and check over no library ("empty") neither resolve nor load the site
// report's stack. Fails when maven-reporting-impl (or Doxia's site renderer, the skins' Velocity) is back on the
// plugin's class path, or when one of the two runs loads a class of it from anywhere; and when they start
// jackson-databind's ObjectMapper (the GPU catalog through a CsvMapper).
String log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
assert log.contains('[INFO] Skipping the CUDA stack budget check: cudaStackBudget.skip is set.')
assert log.contains('[INFO] No CUDA kernels found in 0 scanned file(s): nothing to check.')
assert new File(basedir, 'empty/target/cuda-stack-budget/cuda-stack-budget.json').isFile() : 'the empty run writes its reports'
assert !new File(basedir, 'skipped/target/cuda-stack-budget').exists() : 'the skipped run writes nothing'

// the site stack, as artifacts (class realm) and as classes
def siteArtifacts = ~/(maven-reporting-impl|doxia-site-renderer|doxia-integration-tools|doxia-core|doxia-skin-model|doxia-site-model|doxia-module-|velocity)/
// (the report API stays: maven-reporting-api and doxia-sink-api, two small jars; Maven 3.9 loads every mojo class of a
// plugin when it registers the goals, and ReportMojo's signatures name Sink)
def sitePackages = ['org.apache.maven.reporting.AbstractMavenReport', 'org.apache.maven.doxia.siterenderer.',
        'org.apache.maven.doxia.tools.', 'org.apache.maven.doxia.site.', 'org.apache.maven.doxia.module.',
        'org.apache.maven.doxia.parser.', 'org.apache.maven.doxia.macro.', 'org.apache.velocity.']

// -X: "Populating class realm plugin>io.github.cudastackbudget:cuda-stack-budget-maven-plugin:..." then "Included: ..."
List<String> lines = log.readLines()
int realm = lines.findIndexOf { it.contains('Populating class realm plugin>io.github.cudastackbudget:cuda-stack-budget-maven-plugin') }
assert realm >= 0 : 'no class realm of the plugin in the -X log'
def included = lines.drop(realm + 1).takeWhile { it.contains('Included: ') }.collect { it.substring(it.indexOf('Included: ') + 10) }
assert included.any { it.startsWith('io.github.cudastackbudget:cuda-stack-budget-maven-plugin:') } : included
def siteInRealm = included.findAll { it =~ siteArtifacts }
assert siteInRealm.isEmpty() : "the plugin's class realm holds the site stack: ${siteInRealm}"

// -verbose:class: "[class,load] NAME source: ..." for every class the JVM loaded
def loads = lines.findAll { it.contains('[class,load] ') }
assert loads.any { it.contains('io.github.cudastackbudget.maven.CheckMojo ') } : 'no -verbose:class output for the plugin'
def siteLoads = loads.findAll { line -> sitePackages.any { line.contains('[class,load] ' + it) } || line =~ siteArtifacts }
assert siteLoads.isEmpty() : "the check loaded the site stack: ${siteLoads.take(5)}"
// nor jackson-databind's mappers nor a CSV parser: the GPU catalog is tab-separated lines the JDK reads, the reports
// go through jackson-core's generators (a cold CsvMapper cost a no-library check about 0.15 s, a CsvFactory half of a
// cached re-check; only reading a JSON report, for the report goal or a baseline, needs databind)
def mapperLoads = loads.findAll { it =~ /\[class,load\] com\.fasterxml\.jackson\.(databind\.ObjectMapper |dataformat\.)/ }
assert mapperLoads.isEmpty() : "the check started jackson-databind: ${mapperLoads.take(5)}"
// nor the report goal's page
def pageLoads = loads.findAll { it =~ /io\.github\.cudastackbudget\.maven\.(SiteReportRenderer|StandaloneSitePage|SiteStack)/ }
assert pageLoads.isEmpty() : "the check loaded the report page's classes: ${pageLoads.take(5)}"
return true
