package io.podset.testkit.internal.admission;

import com.google.common.collect.ImmutableList;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.TypeParamType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Kubernetes CEL libraries CRD authors use most, as declarations for the compiler and bindings
 * for the runtime: lists ({@code isSorted}, {@code sum}, {@code min}, {@code max}, {@code indexOf},
 * {@code lastIndexOf}), regex ({@code find}, {@code findAll}), quantity ({@code quantity}, {@code
 * isQuantity}, comparisons and arithmetic) and URL ({@code url}, {@code isURL}, getters). The
 * string library and {@code matches} come with cel-java.
 */
final class KubernetesCelFunctions {

  static final CelType QUANTITY = OpaqueType.create("kubernetes.Quantity");
  static final CelType URL = OpaqueType.create("kubernetes.URL");
  private static final CelType PARAM_A = TypeParamType.create("A");
  private static final CelType LIST_OF_A = ListType.create(PARAM_A);
  private static final CelType STRING = SimpleType.STRING;
  private static final CelType INT = SimpleType.INT;
  private static final CelType BOOL = SimpleType.BOOL;

  /** The element types of Kubernetes' isSorted, min and max, and of sum. */
  private static final List<CelType> COMPARABLE =
      List.of(
          BOOL,
          INT,
          SimpleType.UINT,
          SimpleType.DOUBLE,
          SimpleType.BYTES,
          STRING,
          SimpleType.DURATION,
          SimpleType.TIMESTAMP);

  private static final List<CelType> SUMMABLE =
      List.of(INT, SimpleType.UINT, SimpleType.DOUBLE, SimpleType.DURATION);

  /** A parsed quantity: its exact value. */
  record Quantity(BigDecimal value) {}

  /** A parsed URL. */
  record Url(URI uri) {}

  private KubernetesCelFunctions() {}

  static List<CelFunctionDecl> declarations() {
    List<CelFunctionDecl> d = new ArrayList<>();
    // As Kubernetes' lists library: one overload per element type, so the checker refuses e.g.
    // the sum of strings; the element type is the result of sum, min and max.
    d.add(listFunction("isSorted", "is_sorted", COMPARABLE, t -> BOOL));
    d.add(listFunction("sum", "sum", SUMMABLE, t -> t));
    d.add(listFunction("min", "min", COMPARABLE, t -> t));
    d.add(listFunction("max", "max", COMPARABLE, t -> t));
    d.add(member("indexOf", "k8s_list_index_of", INT, LIST_OF_A, PARAM_A));
    d.add(member("lastIndexOf", "k8s_list_last_index_of", INT, LIST_OF_A, PARAM_A));
    d.add(member("find", "k8s_string_find", STRING, STRING, STRING));
    d.add(
        CelFunctionDecl.newFunctionDeclaration(
            "findAll",
            CelOverloadDecl.newMemberOverload(
                "k8s_string_find_all", ListType.create(STRING), STRING, STRING),
            CelOverloadDecl.newMemberOverload(
                "k8s_string_find_all_n", ListType.create(STRING), STRING, STRING, INT)));
    d.add(global("quantity", "k8s_quantity", QUANTITY, STRING));
    d.add(global("isQuantity", "k8s_is_quantity", BOOL, STRING));
    d.add(member("isLessThan", "k8s_quantity_less", BOOL, QUANTITY, QUANTITY));
    d.add(member("isGreaterThan", "k8s_quantity_greater", BOOL, QUANTITY, QUANTITY));
    d.add(member("compareTo", "k8s_quantity_compare", INT, QUANTITY, QUANTITY));
    d.add(member("isInteger", "k8s_quantity_is_integer", BOOL, QUANTITY));
    d.add(member("asInteger", "k8s_quantity_as_integer", INT, QUANTITY));
    d.add(member("asApproximateFloat", "k8s_quantity_as_float", SimpleType.DOUBLE, QUANTITY));
    d.add(
        CelFunctionDecl.newFunctionDeclaration(
            "add",
            CelOverloadDecl.newMemberOverload("k8s_quantity_add", QUANTITY, QUANTITY, QUANTITY),
            CelOverloadDecl.newMemberOverload("k8s_quantity_add_int", QUANTITY, QUANTITY, INT)));
    d.add(
        CelFunctionDecl.newFunctionDeclaration(
            "sub",
            CelOverloadDecl.newMemberOverload("k8s_quantity_sub", QUANTITY, QUANTITY, QUANTITY),
            CelOverloadDecl.newMemberOverload("k8s_quantity_sub_int", QUANTITY, QUANTITY, INT)));
    d.add(global("url", "k8s_url", URL, STRING));
    d.add(global("isURL", "k8s_is_url", BOOL, STRING));
    d.add(member("getScheme", "k8s_url_scheme", STRING, URL));
    d.add(member("getHost", "k8s_url_host", STRING, URL));
    d.add(member("getHostname", "k8s_url_hostname", STRING, URL));
    d.add(member("getPort", "k8s_url_port", STRING, URL));
    d.add(member("getEscapedPath", "k8s_url_path", STRING, URL));
    d.add(
        member("getQuery", "k8s_url_query", MapType.create(STRING, ListType.create(STRING)), URL));
    return d;
  }

  static List<CelFunctionBinding> bindings() {
    List<CelFunctionBinding> b = new ArrayList<>();
    for (CelType t : COMPARABLE) {
      b.add(CelFunctionBinding.from(overload("is_sorted", t), List.class, l -> isSorted(l)));
      b.add(CelFunctionBinding.from(overload("min", t), List.class, l -> extreme(l, -1)));
      b.add(CelFunctionBinding.from(overload("max", t), List.class, l -> extreme(l, 1)));
    }
    for (CelType t : SUMMABLE) {
      Object zero = t.equals(SimpleType.DOUBLE) ? (Object) 0.0 : (Object) 0L;
      b.add(CelFunctionBinding.from(overload("sum", t), List.class, l -> sum(l, zero)));
    }
    b.add(
        CelFunctionBinding.from(
            "k8s_list_index_of", List.class, Object.class, (l, v) -> (long) l.indexOf(v)));
    b.add(
        CelFunctionBinding.from(
            "k8s_list_last_index_of", List.class, Object.class, (l, v) -> (long) l.lastIndexOf(v)));
    b.add(
        CelFunctionBinding.from(
            "k8s_string_find",
            String.class,
            String.class,
            (s, re) -> {
              Matcher m = Pattern.compile(re).matcher(s);
              return m.find() ? m.group() : "";
            }));
    b.add(
        CelFunctionBinding.from(
            "k8s_string_find_all", String.class, String.class, (s, re) -> findAll(s, re, -1)));
    b.add(
        CelFunctionBinding.from(
            "k8s_string_find_all_n",
            ImmutableList.of(String.class, String.class, Long.class),
            args -> findAll((String) args[0], (String) args[1], (Long) args[2])));
    b.add(CelFunctionBinding.from("k8s_quantity", String.class, KubernetesCelFunctions::quantity));
    b.add(
        CelFunctionBinding.from("k8s_is_quantity", String.class, s -> Quantities.value(s) != null));
    b.add(
        CelFunctionBinding.from(
            "k8s_quantity_less",
            Quantity.class,
            Quantity.class,
            (a, c) -> a.value().compareTo(c.value()) < 0));
    b.add(
        CelFunctionBinding.from(
            "k8s_quantity_greater",
            Quantity.class,
            Quantity.class,
            (a, c) -> a.value().compareTo(c.value()) > 0));
    b.add(
        CelFunctionBinding.from(
            "k8s_quantity_compare",
            Quantity.class,
            Quantity.class,
            (a, c) -> (long) a.value().compareTo(c.value())));
    b.add(
        CelFunctionBinding.from(
            "k8s_quantity_is_integer",
            Quantity.class,
            q -> q.value().stripTrailingZeros().scale() <= 0 && fitsLong(q.value())));
    b.add(
        CelFunctionBinding.from(
            "k8s_quantity_as_integer", Quantity.class, KubernetesCelFunctions::asInteger));
    b.add(
        CelFunctionBinding.from(
            "k8s_quantity_as_float", Quantity.class, q -> q.value().doubleValue()));
    b.add(
        CelFunctionBinding.from(
            "k8s_quantity_add",
            Quantity.class,
            Quantity.class,
            (a, c) -> new Quantity(a.value().add(c.value()))));
    b.add(
        CelFunctionBinding.from(
            "k8s_quantity_add_int",
            Quantity.class,
            Long.class,
            (a, c) -> new Quantity(a.value().add(BigDecimal.valueOf(c)))));
    b.add(
        CelFunctionBinding.from(
            "k8s_quantity_sub",
            Quantity.class,
            Quantity.class,
            (a, c) -> new Quantity(a.value().subtract(c.value()))));
    b.add(
        CelFunctionBinding.from(
            "k8s_quantity_sub_int",
            Quantity.class,
            Long.class,
            (a, c) -> new Quantity(a.value().subtract(BigDecimal.valueOf(c)))));
    b.add(CelFunctionBinding.from("k8s_url", String.class, KubernetesCelFunctions::url));
    b.add(CelFunctionBinding.from("k8s_is_url", String.class, s -> parseUrl(s) != null));
    b.add(CelFunctionBinding.from("k8s_url_scheme", Url.class, u -> nonNull(u.uri().getScheme())));
    b.add(
        CelFunctionBinding.from(
            "k8s_url_host",
            Url.class,
            u -> nonNull(u.uri().getRawAuthority()).replaceFirst("^.*@", "")));
    b.add(CelFunctionBinding.from("k8s_url_hostname", Url.class, KubernetesCelFunctions::hostname));
    b.add(
        CelFunctionBinding.from(
            "k8s_url_port",
            Url.class,
            u -> u.uri().getPort() < 0 ? "" : Integer.toString(u.uri().getPort())));
    b.add(CelFunctionBinding.from("k8s_url_path", Url.class, u -> nonNull(u.uri().getRawPath())));
    b.add(CelFunctionBinding.from("k8s_url_query", Url.class, KubernetesCelFunctions::query));
    return b;
  }

  private static CelFunctionDecl listFunction(
      String name, String id, List<CelType> elements, UnaryOperator<CelType> result) {
    List<CelOverloadDecl> overloads = new ArrayList<>();
    for (CelType t : elements) {
      overloads.add(
          CelOverloadDecl.newMemberOverload(overload(id, t), result.apply(t), ListType.create(t)));
    }
    return CelFunctionDecl.newFunctionDeclaration(name, overloads);
  }

  private static String overload(String id, CelType element) {
    return "k8s_list_" + element.name() + "_" + id;
  }

  private static CelFunctionDecl member(String name, String id, CelType result, CelType... args) {
    return CelFunctionDecl.newFunctionDeclaration(
        name, CelOverloadDecl.newMemberOverload(id, result, args));
  }

  private static CelFunctionDecl global(String name, String id, CelType result, CelType... args) {
    return CelFunctionDecl.newFunctionDeclaration(
        name, CelOverloadDecl.newGlobalOverload(id, result, args));
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static boolean isSorted(List<?> list) {
    for (int i = 1; i < list.size(); i++) {
      if (((Comparable) list.get(i - 1)).compareTo(list.get(i)) > 0) {
        return false;
      }
    }
    return true;
  }

  private static Object sum(List<?> list, Object zero) throws CelEvaluationException {
    if (list.isEmpty()) {
      return zero;
    }
    if (list.get(0) instanceof Double) {
      double total = 0;
      for (Object o : list) {
        total += (Double) o;
      }
      return total;
    }
    long total = 0;
    for (Object o : list) {
      if (!(o instanceof Long n)) {
        throw new IllegalArgumentException("sum of a list of " + o.getClass().getSimpleName());
      }
      total = Math.addExact(total, n);
    }
    return total;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object extreme(List<?> list, int sign) {
    if (list.isEmpty()) {
      throw new IllegalArgumentException(
          sign < 0 ? "min(list) of an empty list" : "max(list) of an empty list");
    }
    Object best = list.get(0);
    for (Object o : list) {
      if (((Comparable) o).compareTo(best) * sign > 0) {
        best = o;
      }
    }
    return best;
  }

  private static List<String> findAll(String s, String re, long limit) {
    List<String> out = new ArrayList<>();
    Matcher m = Pattern.compile(re).matcher(s);
    while ((limit < 0 || out.size() < limit) && m.find()) {
      out.add(m.group());
    }
    return out;
  }

  private static Quantity quantity(String text) {
    BigDecimal value = Quantities.value(text);
    if (value == null) {
      throw new IllegalArgumentException("quantities must match the regular expression");
    }
    return new Quantity(value);
  }

  private static boolean fitsLong(BigDecimal v) {
    return v.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0
        && v.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) >= 0;
  }

  private static long asInteger(Quantity q) {
    if (q.value().stripTrailingZeros().scale() > 0 || !fitsLong(q.value())) {
      throw new IllegalArgumentException("cannot convert value to integer");
    }
    return q.value().setScale(0, RoundingMode.UNNECESSARY).longValueExact();
  }

  private static URI parseUrl(String text) {
    try {
      URI uri = new URI(text);
      // Go's url.ParseRequestURI: absolute URLs or absolute paths, no fragments.
      if ((uri.getScheme() == null && !text.startsWith("/")) || uri.getRawFragment() != null) {
        return null;
      }
      return uri;
    } catch (URISyntaxException e) {
      return null;
    }
  }

  private static Url url(String text) {
    URI uri = parseUrl(text);
    if (uri == null) {
      throw new IllegalArgumentException("URL parse error during conversion from string: " + text);
    }
    return new Url(uri);
  }

  private static String hostname(Url u) {
    String host = nonNull(u.uri().getHost());
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  private static Map<String, List<String>> query(Url u) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    String q = u.uri().getRawQuery();
    if (q != null && !q.isEmpty()) {
      for (String pair : q.split("&")) {
        int eq = pair.indexOf('=');
        String key = decode(eq < 0 ? pair : pair.substring(0, eq));
        String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
        out.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
      }
    }
    return out;
  }

  private static String decode(String s) {
    return java.net.URLDecoder.decode(s, java.nio.charset.StandardCharsets.UTF_8);
  }

  private static String nonNull(String s) {
    return s == null ? "" : s;
  }
}
