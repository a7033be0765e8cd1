package dev.domino.compiler.jsonschema.refs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.domino.compiler.StrictJson;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The official meta-schemas of drafts 4, 6, 7, 2019-09 and 2020-12, bundled with the compiler (resources under
 * {@code metaschemas/}, see their README and LICENSE) and found by {@link RemoteSchemas} where the caller's
 * schema registry has no document of the URI: a {@code $ref} to a draft's meta-schema (a grammar of all the
 * draft's schemas) needs no network and no registry. Each is registered by its own {@code $id} (draft 4:
 * {@code id}) without fragment.
 */
public final class MetaSchemas {
    private static final String FOLDER = "metaschemas/";
    private static final List<String> RESOURCES = List.of(
        "draft2020-12/schema.json", "draft2020-12/meta/core.json", "draft2020-12/meta/applicator.json",
        "draft2020-12/meta/unevaluated.json", "draft2020-12/meta/validation.json", "draft2020-12/meta/meta-data.json",
        "draft2020-12/meta/format-annotation.json", "draft2020-12/meta/format-assertion.json", "draft2020-12/meta/content.json",
        "draft2019-09/schema.json", "draft2019-09/meta/core.json", "draft2019-09/meta/applicator.json",
        "draft2019-09/meta/validation.json", "draft2019-09/meta/meta-data.json", "draft2019-09/meta/format.json",
        "draft2019-09/meta/content.json", "draft7/schema.json", "draft6/schema.json", "draft4/schema.json");

    private MetaSchemas() {}

    /** URI (without fragment) -> document, read once. */
    private static final class Holder {
        static final Map<String, JsonNode> DOCUMENTS = load();
    }

    private static Map<String, JsonNode> load() {
        Map<String, JsonNode> out = new TreeMap<>();
        for (String r : RESOURCES) {
            try (InputStream in = MetaSchemas.class.getResourceAsStream(FOLDER + r)) {
                if (in == null) throw new IllegalStateException("bundled meta-schema missing: " + FOLDER + r);
                JsonNode doc = StrictJson.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                String id = doc.path("$id").isTextual() ? doc.get("$id").asText() : doc.path("id").asText();
                out.put(withoutFragment(id), doc);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (StrictJson.Invalid e) {
                throw new IllegalStateException("bundled meta-schema " + r + ": " + e.getMessage());
            }
        }
        return Collections.unmodifiableMap(out);
    }

    private static String withoutFragment(String uri) {
        int hash = uri.indexOf('#');
        return hash < 0 ? uri : uri.substring(0, hash);
    }

    /** The bundled meta-schema of an absolute URI (a fragment is ignored), or null. */
    public static JsonNode document(String uri) {
        if (!uri.contains("json-schema.org/")) return null; // without reading the resources
        return Holder.DOCUMENTS.get(withoutFragment(uri));
    }

    /** The URIs of the bundled meta-schemas, sorted. */
    public static Set<String> uris() { return Holder.DOCUMENTS.keySet(); }
}
