package dev.domino.compiler.jsonschema;

import com.fasterxml.jackson.databind.JsonNode;
import dev.domino.compiler.StrictJson;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Schema documents the caller provides for remote {@code $ref}s, by absolute URI (without fragment). A reference
 * to a document of the registry is resolved as if the document had been retrieved from that URI; a reference to
 * any other document is a one-line error naming its URI. Nothing is ever fetched. Immutable; equal registries
 * (same URIs, same documents) give equal options and the same artifact.
 */
public final class SchemaRegistry {
    /**
     * The folder of the base URI of a schema without {@code $id} (it is never fetched): a document registered under
     * it is what such a schema's relative reference ({@code "$ref": "other.json"}) names.
     */
    public static final String DEFAULT_FOLDER = "https://domino.invalid/";

    private static final SchemaRegistry EMPTY = new SchemaRegistry(new TreeMap<>());

    private final TreeMap<String, JsonNode> documents;
    private volatile String digest;

    private SchemaRegistry(TreeMap<String, JsonNode> documents) { this.documents = documents; }

    /** No documents: every remote reference is an error. */
    public static SchemaRegistry empty() { return EMPTY; }

    public static Builder builder() { return new Builder(); }

    /** The document registered under an absolute URI (a trailing empty fragment {@code #} is ignored), or null. */
    public JsonNode document(String uri) {
        if (documents.isEmpty()) return null;
        try {
            return documents.get(key(uri));
        } catch (IllegalArgumentException e) {
            return null; // not an absolute URI: no document has it
        }
    }

    public boolean isEmpty() { return documents.isEmpty(); }

    public int size() { return documents.size(); }

    /** The registered URIs, sorted. */
    public java.util.Set<String> uris() { return java.util.Collections.unmodifiableSet(documents.keySet()); }

    /** A SHA-256 over the URIs and documents, in URI order: what an artifact records of the registry. */
    public String digest() {
        if (digest == null) digest = computeDigest();
        return digest;
    }

    private String computeDigest() {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (Map.Entry<String, JsonNode> e : documents.entrySet()) {
                md.update(e.getKey().getBytes(StandardCharsets.UTF_8));
                md.update((byte) 0);
                md.update(e.getValue().toString().getBytes(StandardCharsets.UTF_8));
                md.update((byte) 0);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override public boolean equals(Object o) { return o instanceof SchemaRegistry r && documents.equals(r.documents); }

    @Override public int hashCode() { return documents.hashCode(); }

    @Override public String toString() { return documents.size() + " schema documents"; }

    /** An absolute URI without fragment (an empty fragment is dropped); IllegalArgumentException otherwise. */
    static String key(String uri) {
        String s = uri.endsWith("#") ? uri.substring(0, uri.length() - 1) : uri;
        URI u;
        try {
            u = new URI(s);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a URI: '" + uri + "'");
        }
        if (!u.isAbsolute()) throw new IllegalArgumentException("not an absolute URI: '" + uri + "'");
        if (u.getRawFragment() != null) throw new IllegalArgumentException("a document's URI has no fragment: '" + uri + "'");
        return u.toString();
    }

    /** Collects documents; a URI registered twice must name the same document. */
    public static final class Builder {
        private final TreeMap<String, JsonNode> documents = new TreeMap<>();

        private Builder() {}

        /** A parsed document under an absolute URI. */
        public Builder add(String uri, JsonNode document) {
            String k = key(uri);
            JsonNode old = documents.putIfAbsent(k, document);
            if (old != null && !old.equals(document)) throw new IllegalArgumentException("two different schema documents for '" + k + "'");
            return this;
        }

        /** A document's JSON text under an absolute URI (strictly parsed: an invalid document is an IllegalArgumentException naming the URI). */
        public Builder add(String uri, String json) {
            JsonNode doc;
            try {
                doc = StrictJson.parse(json);
            } catch (StrictJson.Invalid e) {
                throw new IllegalArgumentException("schema document '" + uri + "' is not valid JSON: " + e.getMessage());
            }
            return add(uri, doc);
        }

        /**
         * Every {@code .json} file under a folder (recursively), each by its path relative to the folder resolved
         * against {@code baseUri} (a folder URI, e.g. {@code http://localhost:1234/}), and by its root's
         * {@code $id} (draft 4: {@code id}) when that is an absolute URI or relative to the path's URI.
         */
        public Builder addDirectory(Path dir, String baseUri) {
            URI base = URI.create(baseUri.endsWith("/") ? baseUri : baseUri + "/");
            if (!Files.isDirectory(dir)) throw new IllegalArgumentException("not a folder: " + dir);
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path f : (Iterable<Path>) files.filter(p -> Files.isRegularFile(p) && p.toString().endsWith(".json")).sorted()::iterator) {
                    StringBuilder rel = new StringBuilder();
                    for (Path part : dir.relativize(f)) {
                        if (rel.length() > 0) rel.append('/');
                        rel.append(java.net.URLEncoder.encode(part.toString(), StandardCharsets.UTF_8).replace("+", "%20"));
                    }
                    URI at = base.resolve(rel.toString());
                    String text = Files.readString(f, StandardCharsets.UTF_8);
                    add(at.toString(), text);
                    JsonNode doc = documents.get(key(at.toString()));
                    String id = doc.isObject() && doc.path("$id").isTextual() ? doc.get("$id").asText()
                        : doc.isObject() && doc.path("id").isTextual() ? doc.get("id").asText() : null;
                    if (id != null && !id.startsWith("#")) {
                        try {
                            URI resolved = at.resolve(new URI(id));
                            String withoutFragment = resolved.toString().replaceFirst("#.*$", "");
                            add(withoutFragment, doc);
                        } catch (URISyntaxException | IllegalArgumentException e) {
                            // not a URI: registered by its path only
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return this;
        }

        public SchemaRegistry build() { return documents.isEmpty() ? EMPTY : new SchemaRegistry(new TreeMap<>(documents)); }
    }
}
