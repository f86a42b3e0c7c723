package io.podset.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The RBAC switch of {@link FakeApiServer.Builder#enforceRbac()} and its test-side API; what both
 * servers share is judged by the conformance suite's {@code Rbac*ConformanceTest}.
 */
class RbacEnforcementTest {

  @TempDir Path dir;

  private static void grantConfigMapReads(KubernetesClient admin, String account) {
    admin
        .rbac()
        .roles()
        .inNamespace("default")
        .resource(
            new RoleBuilder()
                .withNewMetadata()
                .withName("reader")
                .endMetadata()
                .addNewRule()
                .withApiGroups("")
                .withResources("configmaps")
                .withVerbs("get", "list")
                .endRule()
                .build())
        .create();
    admin.rbac().roleBindings().inNamespace("default").resource(binding(account)).create();
  }

  private static io.fabric8.kubernetes.api.model.rbac.RoleBinding binding(String account) {
    return new RoleBindingBuilder()
        .withNewMetadata()
        .withName("reader")
        .endMetadata()
        .withNewRoleRef()
        .withApiGroup("rbac.authorization.k8s.io")
        .withKind("Role")
        .withName("reader")
        .endRoleRef()
        .addNewSubject()
        .withKind("ServiceAccount")
        .withName(account)
        .withNamespace("default")
        .endSubject()
        .build();
  }

  @Test
  void enforced_serviceAccountClientIsRefusedUntilBound_adminIsNot() {
    try (FakeApiServer server = FakeApiServer.builder().enforceRbac().start()) {
      assertThat(server.enforcesRbac()).isTrue();
      KubernetesClient admin = server.client();
      admin
          .configMaps()
          .resource(new ConfigMapBuilder().withNewMetadata().withName("c").endMetadata().build())
          .create();
      KubernetesClient sa = server.serviceAccountClient("default", "app");
      KubernetesClientException refused =
          catchThrowableOfType(
              KubernetesClientException.class, () -> sa.configMaps().withName("c").get());
      assertThat(refused.getCode()).isEqualTo(403);
      assertThat(refused.getStatus().getMessage())
          .isEqualTo(
              "configmaps \"c\" is forbidden: User \"system:serviceaccount:default:app\" cannot get"
                  + " resource \"configmaps\" in API group \"\" in the namespace \"default\"");
      grantConfigMapReads(admin, "app");
      assertThat(sa.configMaps().withName("c").get()).isNotNull();
      assertThat(sa.configMaps().list().getItems()).hasSize(1);
      // Impersonation through the admin's configuration.
      try (KubernetesClient bob =
          new KubernetesClientBuilder().withConfig(server.userConfig("bob", "readers")).build()) {
        KubernetesClientException e =
            catchThrowableOfType(KubernetesClientException.class, () -> bob.pods().list());
        assertThat(e.getStatus().getMessage())
            .startsWith("pods is forbidden: User \"bob\" cannot list resource \"pods\"");
      }
    }
  }

  @Test
  void journal_recordsTheUserEachRequestWasServedAs_refusalsIncluded() {
    try (FakeApiServer server = FakeApiServer.builder().enforceRbac().start()) {
      KubernetesClient sa = server.serviceAccountClient("default", "app");
      catchThrowableOfType(KubernetesClientException.class, () -> sa.configMaps().list());
      try (KubernetesClient bob =
          new KubernetesClientBuilder().withConfig(server.userConfig("bob")).build()) {
        catchThrowableOfType(KubernetesClientException.class, () -> bob.pods().list());
      }
      server.client().secrets().list();

      String account = "system:serviceaccount:default:app";
      RequestJournal journal = server.journal();
      assertThat(journal.count(RequestMatcher.verb("list").resource("configmaps").user(account)))
          .isEqualTo(1);
      assertThat(journal.count(RequestMatcher.any().user(account).status(403))).isEqualTo(1);
      assertThat(journal.count(RequestMatcher.verb("list").resource("pods").user("bob")))
          .isEqualTo(1);
      assertThat(journal.records(RequestMatcher.verb("list").resource("secrets")))
          .singleElement()
          .extracting(RequestRecord::user)
          .isEqualTo("fake-admin");
    }
  }

  @Test
  void enforced_kubeconfigOfAServiceAccount_authenticatesAsIt() throws Exception {
    try (FakeApiServer server = FakeApiServer.builder().enforceRbac().start()) {
      Path kubeconfig = server.writeKubeconfig(dir.resolve("sa.kubeconfig"), "default", "app");
      Config config = Config.fromKubeconfig(Files.readString(kubeconfig));
      assertThat(config.getNamespace()).isEqualTo("default");
      try (KubernetesClient sa = new KubernetesClientBuilder().withConfig(config).build()) {
        assertThat(
                catchThrowableOfType(KubernetesClientException.class, () -> sa.configMaps().list())
                    .getCode())
            .isEqualTo(403);
        grantConfigMapReads(server.client(), "app");
        assertThat(sa.configMaps().list().getItems()).isEmpty();
      }
    }
  }

  @Test
  void notEnforced_everyoneMayDoAnything_tokensStillWork() {
    try (FakeApiServer server = FakeApiServer.start()) {
      assertThat(server.enforcesRbac()).isFalse();
      KubernetesClient sa = server.serviceAccountClient("default", "app");
      assertThat(sa.pods().list().getItems()).isEmpty();
      assertThat(server.client().rbac().clusterRoles().list().getItems())
          .as("no default roles without enforcement")
          .isEmpty();
      // An unknown token is the admin, as before RBAC existed here.
      Config unknown =
          new io.fabric8.kubernetes.client.ConfigBuilder(server.clientConfig())
              .withOauthToken("anything")
              .build();
      try (KubernetesClient c = new KubernetesClientBuilder().withConfig(unknown).build()) {
        assertThat(c.namespaces().list().getItems()).isNotEmpty();
      }
    }
  }

  /**
   * Requests race with a binding that comes and goes: a request sent after the binding's create
   * returned (and answered before its delete began) is allowed, one sent after its delete returned
   * (and answered before the next create began) is refused, and nothing fails otherwise.
   */
  @Test
  void enforced_bindingChangesWhileRequestsRun_eachAnswerMatchesTheStateItRanIn() throws Exception {
    try (FakeApiServer server = FakeApiServer.builder().enforceRbac().start()) {
      KubernetesClient admin = server.client();
      grantConfigMapReads(admin, "app");
      admin.rbac().roleBindings().inNamespace("default").withName("reader").delete();
      // Even: unbound and stable; odd: a change is under way. Bound after 4k+2 writes.
      AtomicLong phase = new AtomicLong();
      AtomicBoolean done = new AtomicBoolean();
      AtomicInteger checked = new AtomicInteger();
      AtomicInteger boundChecks = new AtomicInteger();
      AtomicInteger unboundChecks = new AtomicInteger();
      List<String> wrong = java.util.Collections.synchronizedList(new ArrayList<>());
      int readers = 4;
      ExecutorService pool = Executors.newFixedThreadPool(readers + 1);
      try {
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < readers; i++) {
          KubernetesClient sa = server.serviceAccountClient("default", "app");
          futures.add(
              pool.submit(
                  () -> {
                    while (!done.get()) {
                      long before = phase.get();
                      int code;
                      try {
                        sa.configMaps().list();
                        code = 200;
                      } catch (KubernetesClientException e) {
                        code = e.getCode();
                      }
                      long after = phase.get();
                      if (before != after || before % 2 == 1) {
                        continue;
                      }
                      boolean bound = before % 4 == 2;
                      int expected = bound ? 200 : 403;
                      if (code != expected) {
                        wrong.add("phase " + before + ": " + code);
                      }
                      checked.incrementAndGet();
                      (bound ? boundChecks : unboundChecks).incrementAndGet();
                    }
                    return null;
                  }));
        }
        futures.add(
            pool.submit(
                () -> {
                  for (int round = 0; round < 25; round++) {
                    int unbound = unboundChecks.get();
                    Eventually.await(
                        "a reader checked the unbound phase", () -> unboundChecks.get() > unbound);
                    phase.incrementAndGet();
                    admin
                        .rbac()
                        .roleBindings()
                        .inNamespace("default")
                        .resource(binding("app"))
                        .create();
                    int bound = boundChecks.get();
                    phase.incrementAndGet();
                    Eventually.await(
                        "a reader checked the bound phase", () -> boundChecks.get() > bound);
                    phase.incrementAndGet();
                    admin.rbac().roleBindings().inNamespace("default").withName("reader").delete();
                    phase.incrementAndGet();
                  }
                  done.set(true);
                  return null;
                }));
        for (Future<?> f : futures) {
          f.get(120, TimeUnit.SECONDS);
        }
      } finally {
        done.set(true);
        pool.shutdownNow();
      }
      assertThat(wrong).isEmpty();
      assertThat(checked.get()).isPositive();
    }
  }
}
