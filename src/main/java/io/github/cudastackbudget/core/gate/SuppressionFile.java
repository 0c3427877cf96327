package io.github.cudastackbudget.core.gate;

import io.github.cudastackbudget.core.text.InvalidValueException;
import io.github.cudastackbudget.core.text.Printable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParser;
import javax.xml.parsers.SAXParserFactory;
import org.xml.sax.Attributes;
import org.xml.sax.Locator;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Reads a suppressions file (the format is documented on the suppressions-and-rules page):
 *
 * <pre>{@code
 * <suppressions>
 *   <suppress>
 *     <kernel>demo::stageTiles*</kernel>          <!-- required: glob over the mangled or demangled name -->
 *     <library>libstackdemo.so</library>          <!-- optional: glob over the library label -->
 *     <device>h200-141gb</device>                 <!-- optional: glob over the device name or preset id -->
 *     <reason>tile staging, fixed in 2.0</reason> <!-- required -->
 *     <until>2027-06-30</until>                   <!-- optional: ISO date, the last day it applies -->
 *   </suppress>
 * </suppressions>
 * }</pre>
 *
 * <p>Parsed with the JDK's SAX parser with DOCTYPE declarations refused (so no DTD, no entity of any kind, internal
 * or external, is ever read or expanded) and secure processing on. Elements may carry any namespace (only their local
 * names count). Every problem is one {@link InvalidValueException} line naming the file and the line.
 */
public final class SuppressionFile {

    private static final Set<String> FIELDS = Set.of("kernel", "library", "device", "reason", "until");

    private SuppressionFile() {
    }

    /**
     * @param file the suppressions file
     * @param what how messages name the option that gave it ({@code suppressions})
     * @throws InvalidValueException a missing, unreadable or malformed file, one line naming the file and line
     */
    public static List<Suppression> read(Path file, String what) {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, file.toString());
        } catch (NoSuchFileException e) {
            throw new InvalidValueException(what + " file " + file + " does not exist: create it, or set " + what
                    + " to an existing file");
        } catch (IOException e) {
            throw new InvalidValueException(what + " file " + file + " cannot be read: " + e.getMessage());
        }
    }

    /** Reads from a stream; {@code source} names it in messages. */
    static List<Suppression> read(InputStream in, String source) throws IOException {
        Handler handler = new Handler(source);
        try {
            parser().parse(in, handler);
        } catch (SAXParseException e) {
            throw new InvalidValueException(source + ", line " + e.getLineNumber() + ": " + oneLine(e.getMessage()));
        } catch (SAXException e) {
            throw new InvalidValueException(source + ": " + oneLine(e.getMessage()));
        }
        return List.copyOf(handler.entries);
    }

    private static SAXParser parser() {
        try {
            SAXParserFactory factory = SAXParserFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setValidating(false);
            factory.setXIncludeAware(false);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
            factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            SAXParser parser = factory.newSAXParser();
            parser.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            parser.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            return parser;
        } catch (ParserConfigurationException | SAXException e) {
            throw new IllegalStateException("the JDK's XML parser cannot be configured securely: " + e.getMessage(), e);
        }
    }

    private static String oneLine(String message) {
        return Printable.of(message == null ? "malformed XML" : message.replaceAll("\\s+", " ").strip(), 300);
    }

    /** Builds the entries element by element, with the line of each problem. */
    private static final class Handler extends DefaultHandler {
        private final String source;
        private final List<Suppression> entries = new ArrayList<>();
        private final List<String> path = new ArrayList<>();
        private final StringBuilder text = new StringBuilder();
        private Map<String, String> fields;
        private int entryLine;
        private Locator locator;

        Handler(String source) {
            this.source = source;
        }

        @Override
        public void setDocumentLocator(Locator locator) {
            this.locator = locator;
        }

        private int line() {
            return locator == null ? -1 : locator.getLineNumber();
        }

        private InvalidValueException problem(String message) {
            return new InvalidValueException(source + ", line " + line() + ": " + message);
        }

        @Override
        public void startElement(String uri, String localName, String qName, Attributes attributes) {
            String name = localName == null || localName.isEmpty() ? qName : localName;
            int depth = path.size();
            if (depth == 0 && !name.equals("suppressions")) {
                throw problem("the root element is <" + Printable.of(name, 60) + ">, not <suppressions>");
            }
            if (depth == 1) {
                if (!name.equals("suppress")) {
                    throw problem("<" + Printable.of(name, 60) + "> in <suppressions>: only <suppress> entries belong "
                            + "there");
                }
                fields = new HashMap<>();
                entryLine = line();
            }
            if (depth == 2 && !FIELDS.contains(name)) {
                throw problem("<" + Printable.of(name, 60) + "> in <suppress> is unknown: use <kernel>, <library>, "
                        + "<device>, <reason> and <until>");
            }
            if (depth == 2 && fields.containsKey(name)) {
                throw problem("<" + name + "> is given twice in one <suppress>");
            }
            if (depth >= 3) {
                throw problem("<" + Printable.of(name, 60) + "> inside <" + path.get(2) + ">: the field holds text only");
            }
            path.add(name);
            text.setLength(0);
        }

        @Override
        public void characters(char[] ch, int start, int length) {
            if (path.size() == 3) {
                text.append(ch, start, length);
            } else if (!new String(ch, start, length).isBlank()) {
                throw problem("text outside a field of <suppress>: put it in <kernel>, <library>, <device>, <reason> "
                        + "or <until>");
            }
        }

        @Override
        public void endElement(String uri, String localName, String qName) {
            String name = path.remove(path.size() - 1);
            if (path.size() == 2) {
                fields.put(name, text.toString().strip());
            } else if (path.size() == 1) {
                entries.add(entry());
                fields = null;
            }
        }

        private Suppression entry() {
            int index = entries.size() + 1;
            String where = "suppression[" + index + "] (line " + entryLine + ")";
            String kernel = fields.get("kernel");
            if (kernel == null || kernel.isEmpty()) {
                throw problem(where + " has no <kernel>: give a glob over the mangled or demangled name (e.g. "
                        + "demo::stageTiles*)");
            }
            String reason = fields.get("reason");
            if (reason == null || reason.isEmpty()) {
                throw problem(where + " has no <reason>: say why the kernel may exceed the budgets");
            }
            LocalDate until = null;
            String date = fields.get("until");
            if (date != null) {
                try {
                    until = LocalDate.parse(date);
                } catch (DateTimeParseException e) {
                    throw problem(where + ": <until> '" + Printable.of(date, 40) + "' is not a date yyyy-MM-dd (e.g. "
                            + "2027-06-30)");
                }
            }
            return new Suppression(index, entryLine, Glob.of(kernel), glob(fields.get("library")),
                    glob(fields.get("device")), reason.replaceAll("\\s+", " "), until);
        }

        private static Glob glob(String value) {
            return value == null || value.isEmpty() ? null : Glob.of(value);
        }
    }
}
