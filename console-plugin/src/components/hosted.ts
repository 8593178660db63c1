// The hosted clusters' extensions, exposed as one module: the tab and the
// page share most of their code (src/view/hosted*.ts), which one chunk then
// holds once rather than each its own copy.
export { default as HostedClusterTab } from './HostedClusterTab';
export { default as HostedClustersPage } from './HostedClustersPage';
