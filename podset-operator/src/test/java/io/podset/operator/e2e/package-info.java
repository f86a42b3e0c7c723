/**
 * End-to-end tests of what {@code deploy/} declares: the same contracts run against the testkit's
 * fake API server ({@code *Test}) and a real kube-apiserver built by {@code
 * testkit/kube/build-control-plane.sh} ({@code *IT}).
 */
package io.podset.operator.e2e;
