package io.podset.testkit.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.podset.testkit.internal.resource.StatusError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every request gets an answer, whatever throws on its way. */
class RequestPipelineTest {

  private static final ApiRequest GET =
      new ApiRequest("GET", "/api/v1/configmaps", Map.of(), Map.of(), new byte[0], false);

  @Test
  void aFilterThatThrows_answers500_insteadOfLeavingTheRequestUnanswered() {
    RequestPipeline pipeline =
        new RequestPipeline(request -> ApiResponse.json(200, "{}".getBytes()));
    pipeline.addFirst(
        (request, next) -> {
          throw new IllegalStateException("broken filter");
        });

    ApiResult answer = pipeline.handle(GET);

    assertThat(answer.status()).isEqualTo(500);
    assertThat(new String(((ApiResponse) answer).body()))
        .contains("InternalError")
        .contains("broken filter");
  }

  @Test
  void handlerErrors_becomeAnswers_beforeFiltersSeeThem() {
    RequestPipeline pipeline =
        new RequestPipeline(
            request -> {
              throw new StatusError(404, "NotFound", "configmaps \"x\" not found", null);
            });
    List<Integer> seen = new ArrayList<>();
    pipeline.addFirst(
        (request, next) -> {
          ApiResult result = next.proceed(request);
          seen.add(result.status());
          return result;
        });

    assertThat(pipeline.handle(GET).status()).isEqualTo(404);
    assertThat(seen).containsExactly(404);
  }

  @Test
  void filters_runLastAddedFirst_andARemovedFilterNoLongerRuns() {
    List<String> seen = new ArrayList<>();
    RequestPipeline pipeline =
        new RequestPipeline(
            request -> {
              seen.add("handler");
              return ApiResponse.json(200, "{}".getBytes());
            });
    RequestFilter inner =
        (request, next) -> {
          seen.add("inner");
          return next.proceed(request);
        };
    pipeline.addFirst(inner);
    pipeline.addFirst(
        (request, next) -> {
          seen.add("outer");
          return next.proceed(request);
        });

    pipeline.handle(GET);
    pipeline.remove(inner);
    pipeline.handle(GET);

    assertThat(seen).containsExactly("outer", "inner", "handler", "outer", "handler");
  }
}
