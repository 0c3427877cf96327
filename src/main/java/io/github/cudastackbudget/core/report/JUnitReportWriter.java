package io.github.cudastackbudget.core.report;

import io.github.cudastackbudget.core.gate.GateCheck;
import io.github.cudastackbudget.core.report.model.DeviceReport;
import io.github.cudastackbudget.core.report.model.Figures;
import io.github.cudastackbudget.core.report.model.KernelRow;
import io.github.cudastackbudget.core.report.model.Phrases;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.report.model.ViolationReport;
import io.github.cudastackbudget.core.text.Frontend;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * {@code TEST-cuda-stack-budget.xml}: the check as a JUnit XML test suite (the format CI servers show as tests).
 * One test case per device budget (class {@code cuda-stack-budget.device}: a {@code <failure>} with the violation
 * lines when the device is over a budget, {@code <skipped>} with the reason when none of its code runs there, else a
 * pass with its figures as {@code <system-out>}), then one per gate check (class
 * {@code cuda-stack-budget.<category>}: a failed check a {@code <failure>}, a warned one a pass with its message as
 * {@code <system-out>}). A check that could not run is one {@code <error>} test case. Written with the JDK's StAX
 * writer, which escapes every value; characters XML 1.0 cannot hold become {@code ?}. No times or host names, so the
 * same model gives the same bytes.
 */
public final class JUnitReportWriter {

    /** The test suite's name, and the prefix of every test case's class name. */
    public static final String SUITE = "cuda-stack-budget";

    private static final XMLOutputFactory FACTORY = XMLOutputFactory.newFactory();

    private final XMLStreamWriter xml;

    private JUnitReportWriter(XMLStreamWriter xml) {
        this.xml = xml;
    }

    /** One test case. */
    private record TestCase(String className, String name, String kind, String message, String text, String out) {
    }

    /** Writes the suite of a check's model. */
    public static void write(ReportModel model, Frontend frontend, OutputStream out) throws IOException {
        List<TestCase> cases = new ArrayList<>();
        for (DeviceReport device : model.devices()) {
            cases.add(device(model, device, frontend));
        }
        for (GateCheck check : model.checks()) {
            String className = SUITE + "." + check.category();
            cases.add(switch (check.outcome()) {
                case FAIL -> new TestCase(className, check.name(), "failure", check.message(), check.message(), null);
                case WARN -> new TestCase(className, check.name(), null, null, null, "WARN: " + check.message());
                case PASS -> new TestCase(className, check.name(), null, null, null, check.message());
            });
        }
        write(cases, out);
    }

    /** Writes the suite of a check that could not run: one test case with the error. */
    public static void writeError(String message, OutputStream out) throws IOException {
        write(List.of(new TestCase(SUITE, "check", "error", message, message, null)), out);
    }

    private static TestCase device(ReportModel model, DeviceReport device, Frontend frontend) {
        String className = SUITE + ".device";
        if (device.skipped()) {
            return new TestCase(className, device.name(), "skipped", device.skipReason(), null, null);
        }
        List<ViolationReport> violations = device.violations();
        if (!violations.isEmpty()) {
            String text = violations.stream().map(violation -> Phrases.violation(violation, device,
                    Phrases.ViolationWording.LOG, frontend).plain()).collect(Collectors.joining("\n"));
            return new TestCase(className, device.name(), "failure", violations.size() == 1 ? text
                    : violations.size() + " budgets exceeded; " + text.substring(0, text.indexOf('\n')), text, null);
        }
        KernelRow worst = device.worstKernel();
        return new TestCase(className, device.name(), null, null, null, "reservation "
                + Figures.bytes(device.reservationBytes()) + (device.budgetBytes() == null ? " (no budget: "
                        + Phrases.noBudgetHint(frontend) + ")" : " of " + Figures.bytes(device.budgetBytes()))
                + (worst == null ? "" : "; worst kernel " + worst.displayName() + " [" + worst.archLabel() + "] in "
                        + worst.library()));
    }

    private static void write(List<TestCase> cases, OutputStream out) throws IOException {
        try {
            XMLStreamWriter xml = FACTORY.createXMLStreamWriter(out, StandardCharsets.UTF_8.name());
            new JUnitReportWriter(xml).suite(cases);
            xml.flush();
            xml.close();
        } catch (XMLStreamException e) {
            throw new IOException("cannot write the JUnit XML report: " + e.getMessage(), e);
        }
    }

    private void suite(List<TestCase> cases) throws XMLStreamException {
        xml.writeStartDocument(StandardCharsets.UTF_8.name(), "1.0");
        xml.writeCharacters("\n");
        xml.writeStartElement("testsuite");
        xml.writeAttribute("name", SUITE);
        xml.writeAttribute("tests", Integer.toString(cases.size()));
        xml.writeAttribute("failures", Long.toString(count(cases, "failure")));
        xml.writeAttribute("errors", Long.toString(count(cases, "error")));
        xml.writeAttribute("skipped", Long.toString(count(cases, "skipped")));
        for (TestCase test : cases) {
            xml.writeCharacters("\n  ");
            xml.writeStartElement("testcase");
            xml.writeAttribute("classname", clean(test.className()));
            xml.writeAttribute("name", clean(test.name()));
            if (test.kind() != null) {
                xml.writeCharacters("\n    ");
                xml.writeStartElement(test.kind());
                if (test.message() != null) {
                    xml.writeAttribute("message", clean(test.message()));
                }
                if (!test.kind().equals("skipped")) {
                    xml.writeAttribute("type", test.kind().equals("error") ? "tool-error" : "budget-exceeded");
                }
                if (test.text() != null) {
                    xml.writeCharacters(clean(test.text()));
                }
                xml.writeEndElement();
            }
            if (test.out() != null) {
                xml.writeCharacters("\n    ");
                xml.writeStartElement("system-out");
                xml.writeCharacters(clean(test.out()));
                xml.writeEndElement();
            }
            if (test.kind() != null || test.out() != null) {
                xml.writeCharacters("\n  ");
            }
            xml.writeEndElement();
        }
        xml.writeCharacters("\n");
        xml.writeEndElement();
        xml.writeCharacters("\n");
        xml.writeEndDocument();
    }

    private static long count(List<TestCase> cases, String kind) {
        return cases.stream().filter(test -> kind.equals(test.kind())).count();
    }

    /** The text with every character XML 1.0 cannot hold (controls but tab and line breaks, lone surrogates) as ?. */
    static String clean(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean allowed;
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                out.append(c).append(text.charAt(++i));
                continue;
            }
            allowed = c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD);
            out.append(allowed ? c : '?');
        }
        return out.toString();
    }
}
