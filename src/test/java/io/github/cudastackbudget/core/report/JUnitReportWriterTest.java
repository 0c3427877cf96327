package io.github.cudastackbudget.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.gate.GateCheck;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.text.Frontend;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class JUnitReportWriterTest {

    private static ReportModel model;

    @BeforeAll
    static void check(@TempDir Path work) throws Exception {
        model = OutputsFixture.model(work);
    }

    private static byte[] xml(ReportModel report) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JUnitReportWriter.write(report, Frontend.PARAMETERS, out);
        return out.toByteArray();
    }

    private static Document parse(byte[] xml) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(xml));
    }

    private static Element testCase(Document document, String className, String name) {
        NodeList cases = document.getElementsByTagName("testcase");
        for (int i = 0; i < cases.getLength(); i++) {
            Element test = (Element) cases.item(i);
            if (test.getAttribute("classname").equals(className) && test.getAttribute("name").equals(name)) {
                return test;
            }
        }
        throw new AssertionError("no test case " + className + " " + name);
    }

    private static String child(Element test, String tag) {
        NodeList children = test.getElementsByTagName(tag);
        return children.getLength() == 0 ? null : children.item(0).getTextContent();
    }

    @Test
    void oneTestCasePerDeviceBudgetAndPerGateCheckCountedOnTheSuite() throws Exception {
        Document document = parse(xml(model));
        Element suite = document.getDocumentElement();

        assertThat(suite.getTagName()).isEqualTo("testsuite");
        assertThat(document.getElementsByTagName("testcase").getLength())
                .isEqualTo(model.devices().size() + model.checks().size()).isEqualTo(6);
        assertThat(suite.getAttribute("name")).isEqualTo("cuda-stack-budget");
        assertThat(suite.getAttribute("tests")).isEqualTo("6");
        assertThat(suite.getAttribute("failures")).isEqualTo("2");
        assertThat(suite.getAttribute("errors")).isEqualTo("0");
        assertThat(suite.getAttribute("skipped")).isEqualTo("1");
    }

    @Test
    void aDeviceOverBudgetFailsWithTheViolationTextAPassingOneShowsItsFiguresASkippedOneItsReason()
            throws Exception {
        Document document = parse(xml(model));

        Element h200 = testCase(document, "cuda-stack-budget.device", "h200-141gb");
        assertThat(child(h200, "failure")).startsWith("h200-141gb: stack reservation 2.57 GiB (2,759,589,888 B) "
                + "exceeds maxReservation 1.00 GiB (1,073,741,824 B); worst kernel void frameKernel<2550>(int*, int) "
                + "[sm_90a] in libframes.so");
        assertThat(((Element) h200.getElementsByTagName("failure").item(0)).getAttribute("type"))
                .isEqualTo("budget-exceeded");
        Element l4 = testCase(document, "cuda-stack-budget.device", "l4");
        assertThat(child(l4, "failure")).isNull();
        assertThat(child(l4, "system-out")).isEqualTo("reservation 867.28 MiB (909,410,304 B) of 1.00 GiB "
                + "(1,073,741,824 B); worst kernel void frameKernel<2550>(int*, int) [sm_80] in libframes.so");
        Element t4 = testCase(document, "cuda-stack-budget.device", "t4");
        assertThat(((Element) t4.getElementsByTagName("skipped").item(0)).getAttribute("message"))
                .startsWith("no embedded SASS runs on sm_75");
    }

    @Test
    void gateChecksFailWarnWithSystemOutOrPassUnderTheirCategory() throws Exception {
        Document document = parse(xml(model));

        assertThat(child(testCase(document, "cuda-stack-budget.rule", "h200-frame"), "failure"))
                .isEqualTo(OutputsFixture.CHECKS.get(0).message());
        Element warned = testCase(document, "cuda-stack-budget.suppression", "legacy-kernel");
        assertThat(child(warned, "failure")).isNull();
        assertThat(child(warned, "system-out")).isEqualTo("WARN: suppression legacy-kernel matched nothing; remove it");
        Element passed = testCase(document, "cuda-stack-budget.baseline", "growth");
        assertThat(passed.getElementsByTagName("failure").getLength()).isZero();
        assertThat(passed.getElementsByTagName("skipped").getLength()).isZero();
    }

    @Test
    void charactersXmlCannotHoldAreReplacedAndTheSameModelGivesTheSameBytes() throws Exception {
        ReportModel odd = OutputsFixture.withChecks(model, List.of(new GateCheck("rule", "bell\u0007<name>",
                GateCheck.Outcome.FAIL, null, null, null, null, null, null, "a \u0000 nul & a \uD800 lone surrogate")));

        byte[] bytes = xml(odd);
        Element test = testCase(parse(bytes), "cuda-stack-budget.rule", "bell?<name>");

        assertThat(child(test, "failure")).isEqualTo("a ? nul & a ? lone surrogate");
        assertThat(xml(odd)).isEqualTo(bytes);
        assertThat(new String(bytes, StandardCharsets.UTF_8)).startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<testsuite name=\"cuda-stack-budget\" tests=\"4\" failures=\"2\" errors=\"0\" skipped=\"1\">\n");
    }

    @Test
    void aCheckThatCouldNotRunIsOneErrorTestCase() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JUnitReportWriter.writeError("cuobjdump timed out after 600 s on libx.so", out);

        Document document = parse(out.toByteArray());
        assertThat(document.getDocumentElement().getAttribute("tests")).isEqualTo("1");
        assertThat(document.getDocumentElement().getAttribute("errors")).isEqualTo("1");
        Element test = testCase(document, "cuda-stack-budget", "check");
        assertThat(child(test, "error")).isEqualTo("cuobjdump timed out after 600 s on libx.so");
        assertThat(((Element) test.getElementsByTagName("error").item(0)).getAttribute("type")).isEqualTo("tool-error");
    }
}
