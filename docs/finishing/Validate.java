import com.fasterxml.jackson.databind.*;
import com.networknt.schema.*;
import java.nio.file.*;
import java.util.*;

/** Reads `generate --json` lines on stdin; prints valid/eos counts under networknt (draft 2020-12). */
public class Validate {
    public static void main(String[] args) throws Exception {
        ObjectMapper om = new ObjectMapper();
        JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(Files.readString(Path.of(args[0])));
        Scanner in = new Scanner(System.in);
        int n = 0, valid = 0, eos = 0, both = 0, restricted = 0; long restrictions = 0; int maxTokens = 0;
        while (in.hasNextLine()) {
            String line = in.nextLine();
            if (!line.startsWith("{")) continue;
            JsonNode d = om.readTree(line);
            if (d.has("summary")) { System.out.println("summary " + d.get("summary")); continue; }
            n++;
            boolean ok;
            try { ok = schema.validate(om.readTree(d.get("output").asText())).isEmpty(); } catch (Exception e) { ok = false; }
            boolean e = d.get("stop").asText().equals("eos");
            if (ok) valid++;
            if (e) eos++;
            if (ok && e) both++;
            int r = d.has("budget_restrictions") ? d.get("budget_restrictions").asInt() : 0;
            if (r > 0) restricted++;
            restrictions += r;
            maxTokens = Math.max(maxTokens, d.get("tokens").asInt());
            if (!ok && args.length > 1) System.out.println("INVALID: " + d.get("output").asText().replace("\n", "\\n"));
        }
        System.out.printf("outputs %d valid %d eos %d valid_and_eos %d max_tokens_used %d outputs_budget_restricted %d budget_restrictions %d%n",
            n, valid, eos, both, maxTokens, restricted, restrictions);
    }
}
