// check-launched-static-override: prepare-agent ran (library extracted, properties set), the check ignored the
// launch log because -DcudaStackBudget.launchLog= was given, and checked statically
String log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
assert new File(basedir, 'target/cuda-stack-budget-agent/libcuda-stack-budget-cupti.so').isFile()
assert log.contains('cudaStackBudget.agentEnv = CUDA_INJECTION64_PATH=')
assert log.contains("CUDA_STACK_BUDGET_LAUNCH_LOG=${new File(basedir, 'target/cuda-stack-budget/launch.log').absolutePath}")
assert !log.contains('does not exist: run the tests')
assert log.contains('No CUDA kernels found in')
assert !log.contains('launched mode:')
return true
