package io.github.cudastackbudget.core.binary;

import java.util.List;
import java.util.Objects;

/**
 * What {@code cuobjdump --dump-resource-usage} shows for one cubin: the module's {@code Common} line and one line per
 * function, in cuobjdump's order.
 *
 * @param global          {@code GLOBAL}: sizes of {@code .nv.global} plus {@code .nv.global.init}
 * @param commonConstants module-level constant banks (unsuffixed {@code .nv.constant<n>}) in section order
 * @param functions       the functions in ascending index of their {@code .text.<name>} section
 */
public record CubinResources(long global, List<ConstantBank> commonConstants, List<Function> functions) {

    public CubinResources {
        commonConstants = List.copyOf(commonConstants);
        functions = List.copyOf(functions);
    }

    /** One {@code CONSTANT[bank]:size} figure. */
    public record ConstantBank(int bank, long size) {
    }

    /**
     * One function line.
     *
     * @param name         the mangled name from the symbol table
     * @param kernel       whether the symbol is a kernel entry ({@code st_other & 0x10})
     * @param registers    REG
     * @param stack        STACK (0 when unknown)
     * @param stackUnknown MIN_STACK_SIZE was 0xFFFFFFFF: printed {@code UNKNOWN}
     * @param shared       SHARED
     * @param local        LOCAL
     * @param constants    per-function constant banks in section order
     */
    public record Function(String name, boolean kernel, int registers, long stack, boolean stackUnknown, long shared,
            long local, List<ConstantBank> constants) {

        public Function {
            Objects.requireNonNull(name, "name");
            constants = List.copyOf(constants);
        }
    }
}
