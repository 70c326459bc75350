{{/*
Shared helpers. Every workload is rendered by the named templates below, called once per part
from deployment.yaml, service.yaml, hpa.yaml, pdb.yaml and networkpolicy.yaml with a context
dict: (dict "root" $ "name" <part name> "part" <values block> "kind" "grpc"|"http").
*/}}

{{- define "inventory.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "inventory.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "inventory.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The Kubernetes name of one part: <fullname>-<part>. Context: dict root, name. */}}
{{- define "inventory.componentName" -}}
{{- printf "%s-%s" (include "inventory.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "inventory.selectorLabels" -}}
app.kubernetes.io/name: {{ include "inventory.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{- define "inventory.labels" -}}
helm.sh/chart: {{ include "inventory.chart" .root }}
{{ include "inventory.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/part-of: inventory
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
{{- end -}}

{{- define "inventory.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "inventory.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* host:port of a service's gRPC endpoint inside the cluster. Context: dict root, name. */}}
{{- define "inventory.grpcAddress" -}}
{{- printf "%s.%s.svc.%s:%v" (include "inventory.componentName" .) .root.Release.Namespace .root.Values.global.clusterDomain .root.Values.ports.grpc -}}
{{- end -}}

{{/* IDENTITY_GRPC_ADDRESS for "identity", PARCEL_TRACKING_GRPC_ADDRESS for "parcel-tracking". */}}
{{- define "inventory.grpcAddressVar" -}}
{{- printf "%s_GRPC_ADDRESS" (. | upper | replace "-" "_") -}}
{{- end -}}

{{- define "inventory.image" -}}
{{- $global := .root.Values.global.image -}}
{{- $repository := .part.image.repository -}}
{{- if $global.registry -}}
{{- $repository = printf "%s/%s" (trimSuffix "/" $global.registry) $repository -}}
{{- end -}}
{{- /* A digest pins the exact image and wins over any tag. */ -}}
{{- if .part.image.digest -}}
{{- printf "%s@%s" $repository .part.image.digest -}}
{{- else -}}
{{- $tag := .part.image.tag | default $global.tag | default .root.Chart.AppVersion -}}
{{- printf "%s:%s" $repository (toString $tag) -}}
{{- end -}}
{{- end -}}

{{/* Fails the render when the grace period cannot hold preStop + the process's own stop timeout. */}}
{{- define "inventory.validateShutdown" -}}
{{- $g := .Values.global -}}
{{- $grace := int $g.terminationGracePeriodSeconds -}}
{{- $preStop := int $g.preStopSleepSeconds -}}
{{- $drainSeconds := div (add (int $g.shutdownTimeoutMs) 999) 1000 -}}
{{- if le (mul $grace 1000) (int $g.shutdownTimeoutMs) -}}
{{- fail "global.terminationGracePeriodSeconds must exceed global.shutdownTimeoutMs" -}}
{{- end -}}
{{- if lt $grace (add $preStop 15) -}}
{{- fail "global.terminationGracePeriodSeconds must cover preStopSleepSeconds + 15 s (the process's hard stop timeout)" -}}
{{- end -}}
{{- if lt $grace (add $preStop $drainSeconds) -}}
{{- fail "global.terminationGracePeriodSeconds must cover preStopSleepSeconds + shutdownTimeoutMs" -}}
{{- end -}}
{{- end -}}

{{/* The container's environment. Context: dict root, name, part, kind. */}}
{{- define "inventory.env" -}}
{{- $root := .root -}}
{{- $g := $root.Values.global -}}
- name: NODE_ENV
  value: production
- name: LOG_LEVEL
  value: {{ $g.logLevel | quote }}
- name: SHUTDOWN_TIMEOUT_MS
  value: {{ $g.shutdownTimeoutMs | quote }}
{{- with $root.Values.tracing.otlpEndpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ . | quote }}
- name: OTEL_SERVICE_NAME
  value: {{ $.name | quote }}
- name: OTEL_TRACES_SAMPLER_ARG
  value: {{ $root.Values.tracing.sampleRatio | quote }}
{{- end }}
{{- if eq .kind "grpc" }}
- name: GRPC_HOST
  value: "0.0.0.0"
- name: GRPC_PORT
  value: {{ $root.Values.ports.grpc | quote }}
- name: METRICS_PORT
  value: {{ $root.Values.ports.metrics | quote }}
- name: MONGO_DB
  value: {{ required (printf "services.%s.mongoDb is required" .name) .part.mongoDb | quote }}
- name: STORE_STALL_MS
  value: {{ $g.storeStallMs | quote }}
{{- range $target := .part.grpcTargets }}
- name: {{ include "inventory.grpcAddressVar" $target }}
  value: {{ include "inventory.grpcAddress" (dict "root" $root "name" $target) | quote }}
{{- end }}
{{- else }}
- name: HTTP_PORT
  value: {{ $root.Values.ports.http | quote }}
- name: METRICS_PORT
  value: {{ $root.Values.ports.metrics | quote }}
{{- range $target, $service := $root.Values.services }}
- name: {{ include "inventory.grpcAddressVar" $target }}
  value: {{ include "inventory.grpcAddress" (dict "root" $root "name" $target) | quote }}
{{- end }}
{{- end }}
{{- range $key, $value := .part.env }}
- name: {{ $key }}
  value: {{ tpl (toString $value) $root | quote }}
{{- end }}
{{- $secretName := .part.existingSecret | default $g.secrets.existingSecret -}}
{{- range $variable := .part.secretEnv }}
- name: {{ $variable }}
  valueFrom:
    secretKeyRef:
      name: {{ required "global.secrets.existingSecret is required" $secretName }}
      key: {{ required (printf "global.secrets.keys.%s is required" $variable) (index $g.secrets.keys $variable) }}
{{- end }}
{{- with .part.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* One Deployment. Context: dict root, name, part, kind ("grpc" for services, "http" for the gateway). */}}
{{- define "inventory.deployment" -}}
{{- $root := .root -}}
{{- $part := .part -}}
{{- include "inventory.validateShutdown" $root -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "inventory.componentName" . }}
  labels:
    {{- include "inventory.labels" . | nindent 4 }}
spec:
  {{- if not $part.autoscaling.enabled }}
  replicas: {{ $part.replicas }}
  {{- end }}
  revisionHistoryLimit: 5
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 1
      maxUnavailable: 0
  selector:
    matchLabels:
      {{- include "inventory.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "inventory.labels" . | nindent 8 }}
      annotations:
        {{- if $root.Values.metrics.scrapeAnnotations }}
        prometheus.io/scrape: "true"
        prometheus.io/path: /metrics
        prometheus.io/port: {{ $root.Values.ports.metrics | quote }}
        {{- end }}
        {{- with $part.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      serviceAccountName: {{ include "inventory.serviceAccountName" $root }}
      automountServiceAccountToken: false
      terminationGracePeriodSeconds: {{ $root.Values.global.terminationGracePeriodSeconds }}
      {{- with $root.Values.global.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      securityContext:
        {{- toYaml $root.Values.podSecurityContext | nindent 8 }}
      topologySpreadConstraints:
        - maxSkew: 1
          topologyKey: kubernetes.io/hostname
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
              {{- include "inventory.selectorLabels" . | nindent 14 }}
      containers:
        - name: {{ .name }}
          image: {{ include "inventory.image" . | quote }}
          imagePullPolicy: {{ $root.Values.global.image.pullPolicy }}
          securityContext:
            {{- toYaml $root.Values.containerSecurityContext | nindent 12 }}
          env:
            {{- include "inventory.env" . | nindent 12 }}
          ports:
            {{- if eq .kind "grpc" }}
            - name: grpc
              containerPort: {{ $root.Values.ports.grpc }}
              protocol: TCP
            - name: metrics
              containerPort: {{ $root.Values.ports.metrics }}
              protocol: TCP
            {{- else }}
            - name: http
              containerPort: {{ $root.Values.ports.http }}
              protocol: TCP
            - name: metrics
              containerPort: {{ $root.Values.ports.metrics }}
              protocol: TCP
            {{- end }}
          {{- if eq .kind "grpc" }}
          startupProbe:
            grpc:
              port: {{ $root.Values.ports.grpc }}
            periodSeconds: 2
            failureThreshold: 60
          readinessProbe:
            grpc:
              port: {{ $root.Values.ports.grpc }}
            periodSeconds: 5
            timeoutSeconds: 2
            failureThreshold: 2
          livenessProbe:
            grpc:
              port: {{ $root.Values.ports.grpc }}
            periodSeconds: 10
            timeoutSeconds: 2
            failureThreshold: 3
          {{- else }}
          startupProbe:
            httpGet:
              path: /healthz
              port: http
            periodSeconds: 2
            failureThreshold: 60
          readinessProbe:
            httpGet:
              path: /readyz
              port: http
            periodSeconds: 5
            timeoutSeconds: 3
            failureThreshold: 2
          livenessProbe:
            httpGet:
              path: /healthz
              port: http
            periodSeconds: 10
            timeoutSeconds: 2
            failureThreshold: 3
          {{- end }}
          {{- if gt (int $root.Values.global.preStopSleepSeconds) 0 }}
          lifecycle:
            preStop:
              exec:
                command: ["sleep", {{ $root.Values.global.preStopSleepSeconds | quote }}]
          {{- end }}
          resources:
            {{- toYaml $part.resources | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
      volumes:
        - name: tmp
          emptyDir:
            sizeLimit: {{ $root.Values.tmpVolume.sizeLimit }}
      {{- with $part.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $part.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $part.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
{{- end -}}

{{/* One Service. Context: dict root, name, part, kind. */}}
{{- define "inventory.service" -}}
{{- $root := .root -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "inventory.componentName" . }}
  labels:
    {{- include "inventory.labels" . | nindent 4 }}
spec:
  type: ClusterIP
  selector:
    {{- include "inventory.selectorLabels" . | nindent 4 }}
  ports:
    {{- if eq .kind "grpc" }}
    - name: grpc
      port: {{ $root.Values.ports.grpc }}
      targetPort: grpc
      protocol: TCP
      appProtocol: grpc
    - name: metrics
      port: {{ $root.Values.ports.metrics }}
      targetPort: metrics
      protocol: TCP
    {{- else }}
    - name: http
      port: {{ $root.Values.ports.http }}
      targetPort: http
      protocol: TCP
    - name: metrics
      port: {{ $root.Values.ports.metrics }}
      targetPort: metrics
      protocol: TCP
    {{- end }}
{{- end -}}

{{/* One HorizontalPodAutoscaler (CPU). Context: dict root, name, part. */}}
{{- define "inventory.hpa" -}}
{{- $a := .part.autoscaling -}}
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ include "inventory.componentName" . }}
  labels:
    {{- include "inventory.labels" . | nindent 4 }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ include "inventory.componentName" . }}
  minReplicas: {{ $a.minReplicas }}
  maxReplicas: {{ $a.maxReplicas }}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ $a.targetCPUUtilizationPercentage }}
{{- end -}}

{{/* One PodDisruptionBudget. Context: dict root, name, part. */}}
{{- define "inventory.pdb" -}}
{{- $p := .part.podDisruptionBudget -}}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "inventory.componentName" . }}
  labels:
    {{- include "inventory.labels" . | nindent 4 }}
spec:
  {{- if hasKey $p "minAvailable" }}
  minAvailable: {{ $p.minAvailable }}
  {{- else }}
  maxUnavailable: {{ $p.maxUnavailable | default 1 }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "inventory.selectorLabels" . | nindent 6 }}
{{- end -}}

{{/* Pod selector for another part of this release. Context: dict root, name. */}}
{{- define "inventory.peer" -}}
- podSelector:
    matchLabels:
      {{- include "inventory.selectorLabels" . | nindent 6 }}
{{- end -}}

{{/* One NetworkPolicy (ingress + egress). Context: dict root, name, part, kind. */}}
{{- define "inventory.networkPolicy" -}}
{{- $root := .root -}}
{{- $np := $root.Values.networkPolicy -}}
{{- $name := .name -}}
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {{ include "inventory.componentName" . }}
  labels:
    {{- include "inventory.labels" . | nindent 4 }}
spec:
  podSelector:
    matchLabels:
      {{- include "inventory.selectorLabels" . | nindent 6 }}
  policyTypes:
    - Ingress
    - Egress
  ingress:
    {{- if eq .kind "grpc" }}
    # gRPC: only the gateway and the parts listed in grpcClients.
    - from:
        {{- include "inventory.peer" (dict "root" $root "name" "gateway") | nindent 8 }}
        {{- range $client := .part.grpcClients }}
        {{- include "inventory.peer" (dict "root" $root "name" $client) | nindent 8 }}
        {{- end }}
      ports:
        - port: grpc
          protocol: TCP
    {{- else }}
    # HTTP (the API): the ingress controller.
    - ports:
        - port: http
          protocol: TCP
      {{- with $np.gatewayFrom }}
      from:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    {{- end }}
    # Metrics (every part, its own port): the metrics scrapers.
    - ports:
        - port: metrics
          protocol: TCP
      {{- with $np.metricsFrom }}
      from:
        {{- toYaml . | nindent 8 }}
      {{- end }}
  egress:
    {{- range $egressName := .part.networkPolicy.egress }}
    {{- $rule := required (printf "networkPolicy.egress.%s is not defined (used by %s)" $egressName $name) (index $np.egress $egressName) }}
    # {{ $egressName }}
    - ports:
        {{- toYaml $rule.ports | nindent 8 }}
      {{- with $rule.to }}
      to:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    {{- end }}
    {{- if $root.Values.tracing.otlpEndpoint }}
    {{- $rule := required "networkPolicy.egress.otlp is required when tracing.otlpEndpoint is set" $np.egress.otlp }}
    # otlp: spans to the collector (tracing.otlpEndpoint), from every part.
    - ports:
        {{- toYaml $rule.ports | nindent 8 }}
      {{- with $rule.to }}
      to:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    {{- end }}
    {{- $targets := list -}}
    {{- if eq .kind "grpc" -}}
    {{- $targets = .part.grpcTargets -}}
    {{- else -}}
    {{- $targets = keys $root.Values.services | sortAlpha -}}
    {{- end }}
    {{- if $targets }}
    # gRPC to other parts of this release.
    - ports:
        - port: {{ $root.Values.ports.grpc }}
          protocol: TCP
      to:
        {{- range $target := $targets }}
        {{- include "inventory.peer" (dict "root" $root "name" $target) | nindent 8 }}
        {{- end }}
    {{- end }}
{{- end -}}
