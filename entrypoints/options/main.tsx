import { render } from 'preact';
import { OptionsApp } from '../../components/options/OptionsApp';
import { applyBrand } from '../../utils/brand';
import { t } from '../../utils/i18n';
import { settings } from '../../utils/settings';
import './style.css';

applyBrand();
document.title = t('optionsTitle', settings.panelName);
render(<OptionsApp />, document.getElementById('app')!);
