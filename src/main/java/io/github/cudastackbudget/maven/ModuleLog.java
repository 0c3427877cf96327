package io.github.cudastackbudget.maven;

import org.apache.maven.plugin.logging.Log;

/**
 * A goal's log under a parallel build ({@code -T}): every line starts with {@code [artifactId] }, so that the lines of
 * modules built at once can be told apart. A serial build logs through the plain log ({@link #of}).
 */
final class ModuleLog implements Log {

    private final Log log;
    private final String prefix;

    private ModuleLog(Log log, String module) {
        this.log = log;
        this.prefix = "[" + module + "] ";
    }

    /**
     * The log a goal writes to: prefixed with the module's artifactId under a parallel build, else {@code log} itself.
     *
     * @param parallel whether the session builds modules at once ({@code MavenSession.isParallel()})
     * @param module   the module's artifactId, or null when not known (then unprefixed)
     */
    static Log of(Log log, boolean parallel, String module) {
        if (!parallel || module == null || module.isEmpty() || log instanceof ModuleLog) {
            return log;
        }
        return new ModuleLog(log, module);
    }

    private CharSequence prefixed(CharSequence content) {
        return prefix + content;
    }

    private String prefixed(Throwable error) {
        return prefix + error;
    }

    @Override
    public boolean isDebugEnabled() {
        return log.isDebugEnabled();
    }

    @Override
    public void debug(CharSequence content) {
        log.debug(prefixed(content));
    }

    @Override
    public void debug(CharSequence content, Throwable error) {
        log.debug(prefixed(content), error);
    }

    @Override
    public void debug(Throwable error) {
        log.debug(prefixed(error), error);
    }

    @Override
    public boolean isInfoEnabled() {
        return log.isInfoEnabled();
    }

    @Override
    public void info(CharSequence content) {
        log.info(prefixed(content));
    }

    @Override
    public void info(CharSequence content, Throwable error) {
        log.info(prefixed(content), error);
    }

    @Override
    public void info(Throwable error) {
        log.info(prefixed(error), error);
    }

    @Override
    public boolean isWarnEnabled() {
        return log.isWarnEnabled();
    }

    @Override
    public void warn(CharSequence content) {
        log.warn(prefixed(content));
    }

    @Override
    public void warn(CharSequence content, Throwable error) {
        log.warn(prefixed(content), error);
    }

    @Override
    public void warn(Throwable error) {
        log.warn(prefixed(error), error);
    }

    @Override
    public boolean isErrorEnabled() {
        return log.isErrorEnabled();
    }

    @Override
    public void error(CharSequence content) {
        log.error(prefixed(content));
    }

    @Override
    public void error(CharSequence content, Throwable error) {
        log.error(prefixed(content), error);
    }

    @Override
    public void error(Throwable error) {
        log.error(prefixed(error), error);
    }
}
