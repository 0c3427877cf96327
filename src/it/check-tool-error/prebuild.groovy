File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))

It.prepare(basedir, ['libstackdemo.so'])
// every report of an earlier, passing run: none may survive as if it described this one
File out = new File(basedir, 'target/cuda-stack-budget')
out.mkdirs()
['cuda-stack-budget.json', 'cuda-stack-budget.txt', 'cuda-stack-budget.html', 'cuda-stack-budget.md',
 'TEST-cuda-stack-budget.xml', 'cuda-stack-budget.sarif'].each { new File(out, it).text = 'from an earlier run\n' }
return true
