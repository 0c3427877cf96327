package io.github.cudastackbudget.core.gate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GlobTest {

    @Test
    void starAndQuestionMarkAreTheOnlyWildcards() {
        Glob glob = Glob.of("void frameKernel<*>(int*, int)");
        assertThat(glob.matches("void frameKernel<2550>(int*, int)")).isTrue();
        assertThat(glob.matches("void frameKernel<64>(int*, int)")).isTrue();
        assertThat(glob.matches("void frameKernel<64>(int*, int) const")).isFalse();
        assertThat(Glob.of("lib?.so").matches("libA.so")).isTrue();
        assertThat(Glob.of("lib?.so").matches("libAB.so")).isFalse();
        // regex characters stand for themselves
        assertThat(Glob.of("a.b").matches("aXb")).isFalse();
        assertThat(Glob.of("demo::f(float const*)").matches("demo::f(float const*)")).isTrue();
        assertThat(Glob.of("[x]+").matches("[x]+")).isTrue();
    }

    @Test
    void theWholeTextMustMatchCaseSensitively() {
        assertThat(Glob.of("frameKernel").matches("_Z11frameKernelILi64EEvPii")).isFalse();
        assertThat(Glob.of("*frameKernel*").matches("_Z11frameKernelILi64EEvPii")).isTrue();
        assertThat(Glob.of("H200*").matches("h200-141gb")).isFalse();
        assertThat(Glob.of(" h200* ").matches("h200-141gb")).isTrue();
        assertThat(Glob.of("*").matches(null)).isFalse();
    }
}
