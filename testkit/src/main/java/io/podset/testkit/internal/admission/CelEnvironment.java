package io.podset.testkit.internal.admission;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.ast.CelReference;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OptionalType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The CEL environment of CRD validation rules: the standard library with the string, optional and
 * set extensions and the Kubernetes functions of {@link KubernetesCelFunctions}, built once, and
 * per schema node {@code self} and {@code oldSelf} (an optional with {@code optionalOldSelf}) typed
 * by {@link CelSchemaTypes}, so that rules are type-checked against the schema as on Kubernetes.
 * Its compilers and runtime are immutable and thread-safe, as are the programs they make.
 */
final class CelEnvironment {

  private static final CelOptions OPTIONS =
      CelOptions.current().enableHeterogeneousNumericComparisons(true).build();

  private static final Pattern SYNTAX_ERROR = Pattern.compile("(?m)^(ERROR: <input>:\\d+:\\d+: )");

  private static final Pattern CANDIDATES =
      Pattern.compile("(?m)^(ERROR: .*found no matching overload for .*) \\(candidates: .*\\)$");

  /** The library without {@code self}; each schema node's compiler extends it. */
  private static final CelCompiler BASE =
      CelCompilerFactory.standardCelCompilerBuilder()
          .setOptions(OPTIONS)
          .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
          .addLibraries(
              CelExtensions.strings(), CelExtensions.optional(), CelExtensions.sets(OPTIONS))
          .addFunctionDeclarations(KubernetesCelFunctions.declarations())
          .build();

  private static final CelRuntime RUNTIME =
      CelRuntimeFactory.standardCelRuntimeBuilder()
          .setOptions(OPTIONS)
          .addLibraries(
              CelExtensions.strings(), CelExtensions.optional(), CelExtensions.sets(OPTIONS))
          .addFunctionBindings(KubernetesCelFunctions.bindings())
          .build();

  /** A compiled expression: its program, result type and whether it reads {@code oldSelf}. */
  record Compiled(CelRuntime.Program program, boolean readsOldSelf, String resultType) {}

  private CelEnvironment() {}

  /**
   * Compilers whose {@code self} has no struct type (a string, a list of ints...), shared by all
   * schemas: building a compiler takes milliseconds, and most rules are on such nodes.
   */
  private static final Map<Map.Entry<CelType, Boolean>, CelCompiler> SHARED =
      new ConcurrentHashMap<>();

  /**
   * The compiler of rules on one schema node: {@code self} and {@code oldSelf} of that node's type.
   */
  static CelCompiler compiler(CelSchemaTypes types, boolean optionalOldSelf) {
    if (types.types().isEmpty()) {
      return SHARED.computeIfAbsent(
          Map.entry(types.self(), optionalOldSelf), k -> build(types, optionalOldSelf));
    }
    return build(types, optionalOldSelf);
  }

  private static CelCompiler build(CelSchemaTypes types, boolean optionalOldSelf) {
    CelType self = types.self();
    return BASE.toCompilerBuilder()
        .setTypeProvider(types)
        .addVar("self", self)
        .addVar("oldSelf", optionalOldSelf ? OptionalType.create(self) : self)
        .build();
  }

  /**
   * cel-java's checker errors in cel-go's words, which the real server prints: without the list of
   * candidate overloads, and with the well-known types by their CEL names.
   */
  private static String goCheckerText(String text) {
    StringBuilder out = new StringBuilder();
    for (String line : CANDIDATES.matcher(text).replaceAll("$1").split("\n", -1)) {
      if (line.startsWith("ERROR: ")) {
        line =
            line.replace("google.protobuf.Timestamp", "timestamp")
                .replace("google.protobuf.Duration", "duration");
      }
      out.append(out.isEmpty() ? "" : "\n").append(line);
    }
    return out.toString();
  }

  /**
   * Compiles {@code expression} with a compiler of {@link #compiler}.
   *
   * @throws IllegalArgumentException with cel's error text when it does not compile
   */
  static Compiled compile(CelCompiler compiler, String expression) {
    CelValidationResult parsed = compiler.parse(expression);
    if (parsed.hasError()) {
      // cel-go names parser errors so; the rest of the text is the same ANTLR grammar's.
      throw new IllegalArgumentException(
          SYNTAX_ERROR.matcher(parsed.getErrorString()).replaceAll("$1Syntax error: "));
    }
    CelValidationResult result = compiler.compile(expression);
    if (result.hasError()) {
      throw new IllegalArgumentException(goCheckerText(result.getErrorString()));
    }
    try {
      CelAbstractSyntaxTree ast = result.getAst();
      boolean readsOldSelf = false;
      for (CelReference ref : ast.getReferenceMap().values()) {
        readsOldSelf |= ref.name().equals("oldSelf");
      }
      return new Compiled(RUNTIME.createProgram(ast), readsOldSelf, ast.getResultType().name());
    } catch (CelValidationException | CelEvaluationException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }
}
