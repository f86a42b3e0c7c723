package io.podset.testkit.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.podset.testkit.internal.resource.ResourceType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Turns a CustomResourceDefinition into the resource types it serves, one per served version. */
public final class CustomResources {

  private static final Pattern KUBE_VERSION = Pattern.compile("v(\\d+)(?:(alpha|beta)(\\d+))?");

  private CustomResources() {}

  public static List<ResourceType> typesOf(JsonNode crd) {
    JsonNode spec = crd.path("spec");
    JsonNode names = spec.path("names");
    String group = spec.path("group").asText();
    String kind = names.path("kind").asText();
    List<String> shortNames = texts(names.path("shortNames"));
    List<String> categories = texts(names.path("categories"));
    boolean namespaced = spec.path("scope").asText("Namespaced").equals("Namespaced");
    List<ResourceType> types = new ArrayList<>();
    for (JsonNode version : spec.path("versions")) {
      if (!version.path("served").asBoolean(true)) {
        continue;
      }
      JsonNode subresources = version.path("subresources");
      boolean status = subresources.has("status");
      ResourceType.ScaleSpec scale = null;
      if (subresources.has("scale")) {
        JsonNode s = subresources.path("scale");
        scale =
            new ResourceType.ScaleSpec(
                s.path("specReplicasPath").asText(".spec.replicas"),
                s.path("statusReplicasPath").asText(".status.replicas"),
                s.path("labelSelectorPath").asText(null));
      }
      List<ResourceType.PrinterColumn> columns = new ArrayList<>();
      for (JsonNode c : version.path("additionalPrinterColumns")) {
        columns.add(
            new ResourceType.PrinterColumn(
                c.path("name").asText(),
                c.path("type").asText("string"),
                c.path("format").asText(""),
                c.path("description").asText(""),
                c.path("jsonPath").asText(),
                c.path("priority").asInt(0)));
      }
      if (columns.isEmpty()) {
        columns.add(
            new ResourceType.PrinterColumn(
                "Age", "date", "", "", ".metadata.creationTimestamp", 0));
      }
      Set<String> selectable = new HashSet<>();
      for (JsonNode f : version.path("selectableFields")) {
        selectable.add(f.path("jsonPath").asText().replaceFirst("^\\.", ""));
      }
      types.add(
          new ResourceType(
              group,
              version.path("name").asText(),
              names.path("plural").asText(),
              names.path("singular").asText(kind.toLowerCase(java.util.Locale.ROOT)),
              kind,
              namespaced,
              shortNames,
              categories,
              status,
              scale,
              true,
              selectable,
              columns,
              new SchemaRules(version.path("schema").path("openAPIV3Schema")),
              true));
    }
    types.sort(Comparator.comparing((ResourceType t) -> priority(t.version())).reversed());
    return types;
  }

  /** Kubernetes version priority: GA over beta over alpha, higher numbers first. */
  static long priority(String version) {
    Matcher m = KUBE_VERSION.matcher(version);
    if (!m.matches()) {
      return 0;
    }
    long major = Long.parseLong(m.group(1));
    long stage = m.group(2) == null ? 3 : m.group(2).equals("beta") ? 2 : 1;
    long minor = m.group(3) == null ? 0 : Long.parseLong(m.group(3));
    return 1_000_000 + stage * 100_000 + major * 1000 + minor;
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
