import { render } from 'preact';
import { OptionsApp } from '../../components/options/OptionsApp';
import { applyBrand } from '../../utils/brand';
import { settings } from '../../utils/settings';
import './style.css';

applyBrand();
document.title = `${settings.panelName} settings`;
render(<OptionsApp />, document.getElementById('app')!);
