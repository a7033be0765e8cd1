package dev.domino.cli;

import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.jsonschema.JsonSchemaOptions.KeyEscapes;
import dev.domino.compiler.jsonschema.JsonSchemaOptions.PropertyOrder;
import dev.domino.compiler.jsonschema.JsonSchemaOptions.UnknownFormats;
import dev.domino.compiler.jsonschema.JsonSchemaOptions.Whitespace;
import dev.domino.compiler.jsonschema.SchemaRegistry;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The options of every command that compiles: the vocabulary ({@link VocabOptions}), the JSON Schema
 * front end's and the tree builder's {@code --dynamic-cap}. Declared once, with one default each
 * (the library's: {@link JsonSchemaOptions#defaults()}, {@link CompileOptions#defaults()}), so no
 * command can drift from another or drop one on the way to the compiler.
 */
public final class CompilerOptions {
    /** With fixed whitespace: the separators of Python's {@code json.dumps}. */
    static final String FIXED_ITEM_SEPARATOR = ", ", FIXED_KEY_SEPARATOR = ": ";

    @Mixin public VocabOptions vocab;

    @Option(names = "--json-whitespace", paramLabel = "flexible|compact|fixed",
            description = "JSON Schema output whitespace: flexible (default; any JSON whitespace, see --json-max-whitespace), "
                    + "compact (none) or fixed (', ' and ': ' as json.dumps writes)")
    public Whitespace jsonWhitespace = Whitespace.FLEXIBLE;

    @Option(names = "--json-property-order", paramLabel = "any|schema",
            description = "JSON Schema object properties: any order (default; additional properties anywhere) or schema order")
    PropertyOrder jsonPropertyOrder = PropertyOrder.ANY;

    @Option(names = "--json-max-whitespace", paramLabel = "N|unbounded", converter = MaxWhitespace.class,
            description = "JSON Schema flexible whitespace: at most N whitespace characters in a row (default "
                    + JsonSchemaOptions.DEFAULT_MAX_WHITESPACE + ")")
    int jsonMaxWhitespace = JsonSchemaOptions.DEFAULT_MAX_WHITESPACE;

    @Option(names = "--json-key-escapes", paramLabel = "plain|any",
            description = "JSON Schema object keys: plain spelling only (default; a fixed key is forced) or any JSON escaping")
    KeyEscapes jsonKeyEscapes = KeyEscapes.PLAIN;

    /** Null when not given: a command may have a reason for another default (bench maskbench does). */
    @Option(names = "--unknown-formats", paramLabel = "error|ignore",
            description = "JSON Schema format values no specification defines (e.g. 'path', 'url'): error (default; "
                    + "bench maskbench: ignore, as MaskBench's validator) or ignore (an annotation, as validators treat them). "
                    + "Specified formats are enforced exactly or, if not expressible (e.g. 'regex'), always an error "
                    + "(--ignore-keyword format skips them)")
    UnknownFormats unknownFormats;

    @Option(names = "--formats", paramLabel = "assert|annotation",
            description = "JSON Schema format: assert (default; the string must be of the format) or annotation "
                    + "(asserts nothing, draft 2020-12's default vocabulary)")
    JsonSchemaOptions.FormatMode formats = JsonSchemaOptions.FormatMode.ASSERT;

    @Option(names = "--json-zero-fraction-integers",
            description = "JSON Schema integers may also be written with a zero fraction (1.0; from draft 6 on). Default: plain integers only")
    boolean zeroFractionIntegers;

    @Option(names = "--ignore-keyword", split = ",", paramLabel = "KEYWORD",
            description = "JSON Schema keywords to ignore instead of failing on them")
    List<String> ignoredKeywords = new ArrayList<>();

    @Option(names = "--schema-dir", paramLabel = "DIR[=BASE_URI]",
            description = "JSON Schema: documents for remote $refs, every .json file under DIR by its $id and by its path "
                    + "resolved against BASE_URI (default " + SchemaRegistry.DEFAULT_FOLDER + ", the folder of a schema without $id); "
                    + "repeatable. Nothing is ever fetched: any other remote $ref is an error naming its URI")
    List<String> schemaDirs = new ArrayList<>();

    @Option(names = "--dynamic-cap", paramLabel = "N",
            description = "paths per trie node before tokens are checked at run time (default " + CompileOptions.DEFAULT_DYNAMIC_CAP + ")")
    public int dynamicCap = CompileOptions.DEFAULT_DYNAMIC_CAP;

    public boolean unknownFormatsGiven() { return unknownFormats != null; }

    /** The JSON Schema options given (the library's default for each one not given). */
    public JsonSchemaOptions jsonSchema() {
        return JsonSchemaOptions.builder().whitespace(jsonWhitespace)
                .itemSeparator(jsonWhitespace == Whitespace.FIXED ? FIXED_ITEM_SEPARATOR : ",")
                .keySeparator(jsonWhitespace == Whitespace.FIXED ? FIXED_KEY_SEPARATOR : ":")
                .propertyOrder(jsonPropertyOrder).maxWhitespace(jsonMaxWhitespace).keyEscapes(jsonKeyEscapes)
                .unknownFormats(unknownFormats != null ? unknownFormats : UnknownFormats.ERROR)
                .ignoredKeywords(ignoredKeywords).schemaRegistry(schemaRegistry()).formatMode(formats).zeroFractionIntegers(zeroFractionIntegers).build();
    }

    /** The documents of every {@code --schema-dir}. */
    SchemaRegistry schemaRegistry() {
        if (schemaDirs.isEmpty()) return SchemaRegistry.empty();
        SchemaRegistry.Builder b = SchemaRegistry.builder();
        for (String d : schemaDirs) {
            int eq = d.indexOf('=');
            b.addDirectory(java.nio.file.Path.of(eq < 0 ? d : d.substring(0, eq)), eq < 0 ? SchemaRegistry.DEFAULT_FOLDER : d.substring(eq + 1));
        }
        return b.build();
    }

    /** Compile options holding every option of this mixin; the command adds its own (threads, lazy, ...). */
    public CompileOptions.Builder compileOptions() {
        if (dynamicCap < 1) throw new IllegalArgumentException("--dynamic-cap must be at least 1");
        return CompileOptions.builder().jsonSchema(jsonSchema()).dynamicCap(dynamicCap)
                .limits(SystemPropertyDefaults.compileLimits());
    }

    /** {@code N} or {@code unbounded}. */
    static final class MaxWhitespace implements ITypeConverter<Integer> {
        @Override public Integer convert(String value) {
            if (value.trim().equalsIgnoreCase("unbounded")) return JsonSchemaOptions.UNBOUNDED_WHITESPACE;
            try {
                int n = Integer.parseInt(value.trim());
                if (n >= 0) return n;
            } catch (NumberFormatException e) {
                // the message below
            }
            throw new TypeConversionException("'" + value + "' is not a whitespace limit: expected a number from 0 to "
                    + Integer.MAX_VALUE + " or unbounded");
        }
    }

}
