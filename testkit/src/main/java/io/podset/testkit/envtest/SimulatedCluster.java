package io.podset.testkit.envtest;

import io.fabric8.kubernetes.api.model.Node;
import io.podset.testkit.SimulatedKubelet;
import java.time.Duration;
import java.util.List;

/**
 * A whole Kubernetes cluster for tests, with nothing real but the control plane: etcd,
 * kube-apiserver (RBAC, ServiceAccount admission), kube-controller-manager with its default
 * controllers (deployment, replicaset, statefulset, job, garbage collector, namespace,
 * serviceaccount and token, endpoints, node lifecycle, pod GC, ...), kube-scheduler, and kwok
 * playing the kubelet of {@link SimulatedClusterBuilder#nodes N} fake nodes. Pods are scheduled by
 * the real scheduler, then kwok makes them Running and Ready; controllers see the same API objects
 * as in a cluster, so a Deployment, a ReplicaSet or an operator converges as it would there.
 *
 * <p>A pod's fate comes from its annotation {@value #FATE_KEY}, as with the fake's simulated
 * kubelet: absent or {@code run} (Running and Ready), {@code never-ready} (Running, never Ready),
 * {@code fail} (phase Failed, containers exited with code 1), {@code crash-loop} (Running, never
 * Ready, each container exits with code 1 and waits in {@code CrashLoopBackOff}: the first crash at
 * once, then a restart every 10 s, where a kubelet doubles its back-off). A container image patched
 * into a running pod restarts that container on the new image ({@code restartCount} + 1) and the
 * pod stays Ready. A pod marked for deletion is removed as soon as its finalizers are gone.
 *
 * <p>What differs from a cluster: no container runs, so there are no logs, exec, probes, volumes or
 * networking (pod and node IPs are only written into their status); the {@code unschedulable} fate
 * is not simulated, since the real scheduler binds pods here: make a pod that no node fits instead
 * (a {@code nodeSelector} that matches none); controllers run with the admin's credentials ({@code
 * --use-service-account-credentials=false}); etcd runs without fsync. A deleted node's pods are
 * deleted by the pod garbage collector 40 to 60 seconds later, as in a cluster.
 *
 * <p>Everything {@link RealApiServer} offers works here too (clients, ServiceAccount identities,
 * kubeconfigs, CRDs). Instances are thread-safe; {@link #close()} stops every process.
 */
public interface SimulatedCluster extends RealApiServer {

  /** The annotation that chooses a pod's fate; the same key as the fake's simulated kubelet. */
  String FATE_KEY = SimulatedKubelet.FATE_KEY;

  /** The label every simulated node carries, with value {@code kwok}. */
  String NODE_TYPE_LABEL = "type";

  /**
   * A builder for a cluster; {@link SimulatedClusterBuilder#start()} starts it.
   *
   * @return a builder with three nodes and the binaries found by {@link
   *     ControlPlaneBinaries#locate()} (searched at start)
   */
  static SimulatedClusterBuilder builder() {
    return new SimulatedClusterBuilder();
  }

  /** The names of the nodes created at start, all Ready when start returned. */
  List<String> nodeNames();

  /**
   * Adds a simulated node and waits until it is Ready and schedulable.
   *
   * @return the node as the server holds it then
   * @throws NullPointerException if {@code name} is null
   * @throws io.fabric8.kubernetes.client.KubernetesClientException if the server refuses it (the
   *     name is not a DNS subdomain, or a node of that name exists)
   * @throws ControlPlaneException if it is not Ready within the start timeout
   */
  Node addNode(String name);

  /** How long {@link SimulatedClusterBuilder#start()} took, from the first process to ready. */
  Duration startDuration();
}
